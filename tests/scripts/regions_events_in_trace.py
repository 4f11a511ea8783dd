"""The monitor sees every step of the region protocol (issue #33): in the decoded trace of a run
with the `regions` class on at every slave (tests/tos_regions.cmake), every event of the class
appears, each followed on its board by the word naming its region, none was lost on the way,
and every computation the home ran reported its result.

usage: regions_events_in_trace.py MONITOR_TRACE_TXT"""
import collections, os, sys


EVENTS = ["RGN_START", "RGN_MISS", "RGN_HOME_REQ", "RGN_INVAL", "RGN_ACK", "RGN_DATA", "RGN_GRANTED",
          "RGN_END", "RGN_CM_DATA", "RGN_CM_COMPUTE", "RGN_CM_RESULT", "RGN_RX"]


def main(path):
    errors = []
    counts = collections.Counter()
    waiting = {}  # board -> the RGN event whose region word is due
    wraps = {}    # board -> its last wrap marker's count
    for n, line in enumerate(open(path), 1):
        if line.startswith("#"):
            continue
        f = line.split()
        if len(f) < 5:
            errors.append("line %d: not a trace line: %r" % (n, line))
            continue
        board, name = f[2], f[4]
        if name in ("OVERFLOW", "LOST") or name.startswith("LOST"):
            errors.append("line %d: events lost (%s on board %s): the test must keep every event" % (n, name, board))
        if name.startswith("WRAP_"):  # the SMI's time-stamp wrap marker may stand between the two words
            # its count steps by one: a step of more is a wrap the SMI could not send, its FIFO full
            nn = int(name[5:], 16)
            if board in wraps and (nn - wraps[board]) % 256 > 1:
                errors.append("line %d: board %s's SMI skipped wrap markers (%02X after %02X): its FIFO was full "
                              "and events were lost; the test must keep every event" % (n, board, nn, wraps[board]))
            wraps[board] = nn
            continue
        if board in waiting:
            if not name.startswith("ARG("):
                errors.append("line %d: %s on board %s is not followed by its region word (got %s)"
                              % (n, waiting[board], board, name))
            del waiting[board]
            continue
        if name.startswith("RGN_"):
            counts[name] += 1
            waiting[board] = name
    for b, name in waiting.items():
        errors.append("the trace ends before the region word of %s on board %s" % (name, b))
    for e in EVENTS:
        if counts[e] == 0:
            errors.append("no %s in the trace: that protocol step is not seen by the monitor" % e)
    unknown = set(counts) - set(EVENTS)
    if unknown:
        errors.append("events of the class this test does not know: %s (add them here)" % ", ".join(sorted(unknown)))
    if counts["RGN_CM_COMPUTE"] != counts["RGN_CM_RESULT"]:
        errors.append("%d computations ran at the home but %d results went back"
                      % (counts["RGN_CM_COMPUTE"], counts["RGN_CM_RESULT"]))
    print("regions in the trace: " + ", ".join("%s %d" % (e, counts[e]) for e in EVENTS))
    if errors:
        print("\n".join("FAIL: " + e for e in errors[:20]))
        return 1
    print("regions_events_in_trace: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
