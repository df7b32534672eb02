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

# loom_add_test(<name> SOURCES ... LIBS ...): a Catch2 test executable registered with ctest.
function(loom_add_test name)
  cmake_parse_arguments(T "" "" "SOURCES;LIBS;ENV;LABELS" ${ARGN})
  add_executable(${name} ${PROJECT_SOURCE_DIR}/tests/CatchMain.cpp ${T_SOURCES})
  target_link_libraries(${name} PRIVATE Catch2::Catch2 ${T_LIBS})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES ENVIRONMENT "${T_ENV}" LABELS "${T_LABELS}")
endfunction()
