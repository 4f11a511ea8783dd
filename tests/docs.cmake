# Recipes that cannot rot (label docs): every ```sh block of these documents is run from a
# scratch folder and its output checked, or says why it is not run (tests/docs/run_recipes.py).
foreach(doc README.md firmware/tos/README.md)
  string(MAKE_C_IDENTIFIER "${doc}" _id)
  add_test(NAME docs_recipes_of_${_id}_run_as_written
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/docs/run_recipes.py ${CMAKE_SOURCE_DIR}/${doc}
            --source ${CMAKE_SOURCE_DIR} --build ${CMAKE_BINARY_DIR})
  set_tests_properties(docs_recipes_of_${_id}_run_as_written PROPERTIES LABELS docs TIMEOUT 1500)
endforeach()
