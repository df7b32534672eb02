# Small helpers shared by Loom's CMake files.

# loom_embed_files(<output.inc> <files...>): writes a C++ include that defines, for each file, an entry
# {"<name>", R"(<contents>)"} so data files (boards, RTL library) ship inside the library that reads them.
function(loom_embed_files output)
  set(deps ${ARGN})
  string(REPLACE ";" "|" files "${deps}")
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} "-DFILES=${files}" -P ${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake
    DEPENDS ${deps} ${PROJECT_SOURCE_DIR}/cmake/EmbedFiles.cmake
    COMMENT "Embedding ${output}" VERBATIM)
endfunction()

# loom_embed_binary(<output.inc> <file>): writes a C++ include holding the file's bytes as an initializer
# list, binary-safe: `const unsigned char data[] = {\n#include "<output.inc>"\n};`.
function(loom_embed_binary output file)
  add_custom_command(
    OUTPUT ${output}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${output} -DINPUT=${file} -P ${PROJECT_SOURCE_DIR}/cmake/EmbedBinary.cmake
    DEPENDS ${file} ${PROJECT_SOURCE_DIR}/cmake/EmbedBinary.cmake
    COMMENT "Embedding ${file}" VERBATIM)
endfunction()

# loom_add_test(<name> SOURCES ... LIBS ...): a Catch2 test executable registered with ctest.
function(loom_add_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;ENV;LABELS" ${ARGN})
  add_executable(${name} ${T_SOURCES})
  target_link_libraries(${name} PRIVATE loom_catch_main ${T_LIBS})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${T_ENV}" LABELS "${T_LABELS}")
endfunction()
