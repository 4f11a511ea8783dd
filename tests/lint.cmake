# The house's own lint (issue #65): every machine fact named once. lint_facts.py fails when a
# fact of its table (markers, SR bits, the PTE layout, sync bytes, the kernel's extent) is
# written by hand outside its one definition and the files generated from it; its self-test
# proves each row fails on a copy made for it. Label: foundation.
add_test(NAME lint_every_fact_is_named_once
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/lint_facts.py ${CMAKE_SOURCE_DIR})
set_tests_properties(lint_every_fact_is_named_once PROPERTIES LABELS foundation)
add_test(NAME lint_facts_fails_on_a_copy
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_SOURCE_DIR}/scripts/lint_facts.py --self-test)
set_tests_properties(lint_facts_fails_on_a_copy PROPERTIES LABELS foundation
  PASS_REGULAR_EXPRESSION "lint_facts self-test: OK")
