# The claims ledger (issue 58; label claims): each seed's claims as rows in sw/analysis/claims/,
# their measured values read from docs/results/*.md, and the prose pasted into those docs. The
# test proves the ledger's rules and that each catches a case made to break it: a quotation not
# in the seed's text, a typed-in value, a check that passes a value and its opposite alike, a
# hand-written number in prose, a claims.md not regenerated (tests/claims/test_claims_ledger.py).
add_test(NAME claims_ledger_rules_hold
  COMMAND ${CMAKE_COMMAND} -E env TESTBED_SHARED_DIR=${TESTBED_SHARED_DIR}
          ${TESTBED_ANALYSIS_PYTHON} ${CMAKE_CURRENT_SOURCE_DIR}/claims/test_claims_ledger.py ${CMAKE_SOURCE_DIR})
set_tests_properties(claims_ledger_rules_hold PROPERTIES LABELS "claims;docs" TIMEOUT 120)
