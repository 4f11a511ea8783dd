/* Time of check, time of use (issue #30): a buffer checked when a call blocks may lose its page
 * before the call completes -- here by sbrk(-n) from another thread of the process. The kernel
 * checks every user page at the moment it copies (vm_user_pa), so the late copy fails cleanly
 * with EFAULT; it never reads or writes physical page 0 (the vector table) in its place:
 *  - a local channel, the receiver waiting on a freed buffer (the sender gets EFAULT too);
 *  - a local channel, the sender waiting on a freed buffer;
 *  - a remote channel: the sender's msg pieces leave after its buffer went (abandoned: the
 *    receiver on another board gets EFAULT, not the kernel's vectors);
 *  - a console write blocked on a full ring;
 *  - rput: a file on its way to another board.
 * The process, the board and the others all go on. */
#include "tos_check.h"

static int my_pid(void) { return gettid() >> 6 & 15; }

/* Wait until thread tid has blocked in `state` (it runs meanwhile). */
static void wait_state(int tid, int state) {
  static struct tos_pinfo info;
  for (int k = 0; k < 100000; ++k) {
    CHECK(pinfo(my_pid(), &info) == 0, "pinfo");
    for (int i = 0; i < info.nthreads; ++i)
      if (info.thread[i].tid == tid && info.thread[i].state == state) return;
    yield();
  }
  CHECK(0, "thread %x never reached state %d", tid, state);
}

/* Fresh heap pages at the break (nothing else of this program uses them), given back later. */
static char *grab(long n) {
  long pad = -(long)sbrk(0) & (TOS_PAGE_SIZE - 1); /* from a page boundary: sbrk(-n) frees them all */
  if (pad) CHECK(sbrk(pad) != (void *)-1, "sbrk(%ld)", pad);
  char *p = sbrk(n);
  CHECK(p != (char *)-1, "sbrk(%ld)", n);
  return p;
}
static void drop(long n) { CHECK(sbrk(-n) != (void *)-1, "sbrk(-%ld)", n); }

static volatile int result;
static char *volatile buffer;
static volatile int length;

static void receiver(void *ch) { result = receive((int)ch, buffer, length); exit(0); }
static void sender(void *ch) { result = send_block((int)ch, buffer, length); exit(0); }
static void console_writer(void *unused) { (void)unused; result = write(1, buffer, length); exit(0); }
static void file_sender(void *board) { result = rput((int)board, "ttou-file", buffer, length, 7); exit(0); }

static void remote_receiver(void *unused) {
  (void)unused;
  static char in[2048];
  int go;
  CHECK(receive(11, &go, sizeof go) == sizeof go, "go");
  int n = receive(12, in, sizeof in); /* the sender's buffer is gone by now */
  int zeros = 0; /* physical page 0 would show as the vector table: SSP, then reset PC */
  if (n > 0) for (int i = 0; i < n; ++i) zeros += in[i] == 0;
  long reply[2] = {n, zeros};
  send_block(13, reply, sizeof reply);
  exit(0);
}

int main(void) {
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES);
  int air = (int)tos_info(TOS_INFO_BOARD) == 2 ? 3 : 2;

  /* 1. a receiver blocked on a buffer that is then freed; the sender arrives */
  buffer = grab(2048);
  length = 8;
  int tid = create(1, 4, HERE, receiver, (void *)1);
  CHECK(tid, "create: %s", tos_strerror(tos_errno));
  wait_state(tid, T_RECV);
  drop(2048);
  static const char msg[8] = "ABCDEFG";
  int rc = send_block(1, msg, sizeof msg);
  CHECK(wait() == 0, "receiver");
  CHECK(rc == -TOS_EFAULT, "send to a receiver whose buffer went: %d, not EFAULT", rc);
  CHECK(result == -TOS_EFAULT, "receive into a buffer that went: %d, not EFAULT", result);
  printf("local channel, receive buffer freed while waiting: EFAULT both sides\n");

  /* 2. a sender blocked on a buffer that is then freed; the receiver arrives */
  buffer = grab(2048);
  memset(buffer, 'x', 2048);
  length = 64;
  tid = create(2, 4, HERE, sender, (void *)2);
  CHECK(tid, "create: %s", tos_strerror(tos_errno));
  wait_state(tid, T_SEND);
  drop(2048);
  static char got[64];
  rc = receive(2, got, sizeof got);
  CHECK(wait() == 0, "sender");
  CHECK(rc == -TOS_EFAULT, "receive from a sender whose buffer went: %d, not EFAULT", rc);
  CHECK(result == -TOS_EFAULT, "send from a buffer that went: %d, not EFAULT", result);
  printf("local channel, send buffer freed while waiting: EFAULT both sides\n");

  /* 3. remote: the sender here waits on a buffer that goes before the receiver on another board asks */
  tid = create(3, 4, air, remote_receiver, NULL);
  CHECK(tid, "create on board %d: %s", air, tos_strerror(tos_errno));
  buffer = grab(2048);
  memset(buffer, 'y', 2048);
  length = 1500;
  int stid = create(4, 4, HERE, sender, (void *)12);
  CHECK(stid, "create: %s", tos_strerror(tos_errno));
  wait_state(stid, T_SEND);
  drop(2048);
  int go = 1;
  CHECK(send_block(11, &go, sizeof go) == 0, "go");
  long reply[2];
  CHECK(receive(13, reply, sizeof reply) == sizeof reply, "reply");
  CHECK(wait() == 0, "remote receiver, sender");
  CHECK(reply[0] == -TOS_EFAULT, "the remote receiver got %ld (%ld zero bytes), not EFAULT", reply[0], reply[1]);
  CHECK(result == -TOS_EFAULT, "remote send from a buffer that went: %d, not EFAULT", result);
  printf("remote channel, send buffer freed before the msg left: abandoned, EFAULT both sides\n");

  /* 4. a console write blocked on a full ring, its buffer freed */
  length = 16 * 1024;
  buffer = grab(length);
  for (int i = 0; i < length; ++i) buffer[i] = i % 64 == 63 ? '\n' : '.';
  tid = create(5, 4, HERE, console_writer, NULL);
  CHECK(tid, "create: %s", tos_strerror(tos_errno));
  wait_state(tid, T_CONSOLE);
  drop(length);
  CHECK(wait() == 0, "writer");
  printf("\n");
  CHECK(result == -TOS_EFAULT, "console write from a buffer that went: %d, not EFAULT", result);
  printf("console write, buffer freed while blocked: EFAULT\n");

  /* 5. rput: a file on its way to another board, its buffer freed (a file of more pages than the
   * network queue holds, defs.h's NET_TXQ: the rest is read from the buffer after it went) */
  length = 256 * 1024;
  buffer = grab(length);
  memset(buffer, 'z', length);
  tid = create(6, 4, HERE, file_sender, (void *)air);
  CHECK(tid, "create: %s", tos_strerror(tos_errno));
  wait_state(tid, T_REMOTE);
  drop(length);
  CHECK(wait() == 0, "file sender");
  CHECK(result == -TOS_EFAULT, "rput from a buffer that went: %d, not EFAULT", result);
  printf("rput, buffer freed on the way: EFAULT\n");

  CHECK(tos_info(TOS_INFO_FREE_FRAMES) >= frames0, "frames: %ld free, %ld before", tos_info(TOS_INFO_FREE_FRAMES),
        frames0);
  CHECK(tos_info(TOS_INFO_FREE_FRAMES) <= tos_info(TOS_INFO_TOTAL_FRAMES), "more frames free than there are");
  tos_pass("buffers_checked_when_used");
  return 0;
}
