# Recipes that cannot rot (label docs): every ```sh block of these documents is run from a
# scratch folder and its output checked, or says why it is not run (tests/docs/run_recipes.py).
foreach(doc README.md firmware/tos/README.md)
  string(MAKE_C_IDENTIFIER "${doc}" _id)
  add_test(NAME docs_recipes_of_${_id}_run_as_written
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/run_recipes.py ${CMAKE_SOURCE_DIR}/${doc}
            --source ${CMAKE_SOURCE_DIR} --build ${CMAKE_BINARY_DIR})
  set_tests_properties(docs_recipes_of_${_id}_run_as_written PROPERTIES LABELS docs TIMEOUT 1500)
endforeach()

# The runner itself refuses a recipe without a marker and one whose output is not what it says.
foreach(case "unmarked:a ```sh block without a <!-- recipe" "wrong_output:no match for '\\^goodbye\\$'")
  string(FIND "${case}" ":" _colon)
  string(SUBSTRING "${case}" 0 ${_colon} _doc)
  math(EXPR _colon "${_colon} + 1")
  string(SUBSTRING "${case}" ${_colon} -1 _why)
  add_test(NAME docs_runner_refuses_${_doc}_recipes
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/run_recipes.py
            ${CMAKE_CURRENT_SOURCE_DIR}/docs/${_doc}.md --source ${CMAKE_SOURCE_DIR} --build ${CMAKE_BINARY_DIR})
  set_tests_properties(docs_runner_refuses_${_doc}_recipes PROPERTIES LABELS docs
    PASS_REGULAR_EXPRESSION "FAIL: .*${_why}")
endforeach()

# The link checker of the installed documents (docs_installed_links_resolve, tests/sdk.cmake)
# finds a link to a file that is not there and a fragment naming no heading, and passes over a
# link in `code`.
add_test(NAME docs_link_checker_finds_broken_links
  COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/links_resolve.py ${CMAKE_CURRENT_SOURCE_DIR}/docs/broken_links)
set_tests_properties(docs_link_checker_finds_broken_links PROPERTIES LABELS docs
  PASS_REGULAR_EXPRESSION "FAIL: broken link README.md:5: sub/gone.md \\(no such file\\)\nFAIL: broken link sub/present.md:3: ../README.md#nowhere \\(no heading #nowhere there\\)\n$"
  FAIL_REGULAR_EXPRESSION "in code|nowhere.md")
