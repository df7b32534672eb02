// SPDX-License-Identifier: Apache-2.0
// A program cache of the test's own: LOOM_CACHE_DIR pointed at a new, empty directory (the C++
// library only, for the tests that link nothing but the ICD loader).
#pragma once

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

/// LOOM_CACHE_DIR set to a new, empty directory while it lives; then as it was, the directory gone.
class TemporaryCacheDirectory {
public:
  TemporaryCacheDirectory() {
    std::string pattern = (std::filesystem::temp_directory_path() / "loom-test-cache-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
    if (const char *before = std::getenv("LOOM_CACHE_DIR"))
      previous_ = before;
    REQUIRE(::setenv("LOOM_CACHE_DIR", path_.c_str(), 1) == 0);
  }
  ~TemporaryCacheDirectory() {
    if (previous_)
      ::setenv("LOOM_CACHE_DIR", previous_->c_str(), 1);
    else
      ::unsetenv("LOOM_CACHE_DIR");
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryCacheDirectory(const TemporaryCacheDirectory &) = delete;
  TemporaryCacheDirectory &operator=(const TemporaryCacheDirectory &) = delete;

  const std::filesystem::path &path() const { return path_; }
  /// The files in it, all of them or those whose names end in `extension` (".o": the CPU device's objects).
  std::vector<std::string> files(const std::string &extension = "") const {
    std::vector<std::string> paths;
    for (const auto &entry : std::filesystem::directory_iterator(path_))
      if (extension.empty() || entry.path().extension() == extension)
        paths.push_back(entry.path().string());
    return paths;
  }
  std::vector<std::string> objects() const { return files(".o"); }

private:
  std::filesystem::path path_;
  std::optional<std::string> previous_;
};
