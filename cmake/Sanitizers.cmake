# -DTESTBED_SANITIZE=ON: the whole host build (models, core, tools, tests) under ASan + UBSan.
if(TESTBED_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
