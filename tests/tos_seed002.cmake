# Seed 002 (issue 35, RHODOS global scheduling; label seed002): the global scheduler's families
# decide as their rules say on scripted event sequences (programs/balancer/gsched.c), and
# process_twin duplicates a process's state (kernel/rex.c).
tos_kernel_test(PROGRAM gsched_policies_decide LABELS seed002)
tos_kernel_test(PROGRAM twin_duplicates_state ALL_FREE LABELS seed002
  REGEX "twin: equal at the twin point, diverged after.*twin_duplicates_state: PASS")
