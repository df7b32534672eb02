// SPDX-License-Identifier: Apache-2.0
// The work-group functions (kernels/collectives.cl, compiled with -cl-std=CL3.0): every kind of
// reduction and scan over int at several group sizes, all/any/broadcast, unsigned, long and float
// elements, long and ulong scans past 32 bits, a 2D group, work-group functions in a data-dependent
// loop, and sub-groups of each device's size (their ids, votes, reductions and scans over int and
// uint); barriers with both fences and a scope, and fences, between exchanges; the work-item
// functions of partial groups, of a run-time dimension and of every dimension of a 3D NDRange; the
// board (one more pass of the group's work-items per function) == the CPU device == a host
// reference folding in local linear id order. Also one event array reused by two phases of async
// copies.
#include "DifferentialSupport.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <limits>
#include <random>

using namespace e2e;

namespace {

const Sources Collectives{LOOM_E2E_COLLECTIVES_LOOM, LOOM_E2E_COLLECTIVES_CL, LOOM_E2E_COLLECTIVES_OPTIONS};

enum Kind { Reduce, Inclusive, Exclusive };
enum Fold { Add, Min, Max };
struct Op {
  Kind kind;
  Fold fold;
};

/// `a` folded by `op` over runs of `span` consecutive elements within groups of `local` (the last
/// run of a group and the last group take what is left), each in order: a work-group function when
/// span is local, a sub-group function when it is the sub-groups' size.
template <typename T> std::vector<T> foldRuns(const std::vector<T> &a, size_t local, size_t span, Op op) {
  auto combine = [&](T x, T y) {
    return op.fold == Add ? T(x + y) : op.fold == Min ? std::min(x, y) : std::max(x, y);
  };
  const T identity = op.fold == Add   ? T(0)
                     : op.fold == Min ? std::numeric_limits<T>::max()
                                      : std::numeric_limits<T>::lowest();
  std::vector<T> out(a.size());
  for (size_t group = 0; group < a.size(); group += local) {
    const size_t groupEnd = std::min(group + local, a.size());
    for (size_t start = group; start < groupEnd; start += span) {
      const size_t end = std::min(start + span, groupEnd);
      T total = identity;
      for (size_t i = start; i < end; ++i) {
        const T before = total;
        total = combine(total, a[i]);
        out[i] = op.kind == Inclusive ? total : before;
      }
      if (op.kind == Reduce)
        std::fill(out.begin() + start, out.begin() + end, total);
    }
  }
  return out;
}

/// `v`'s elements converted to To (to unsigned and back: the same bits).
template <typename To, typename From> std::vector<To> converted(const std::vector<From> &v) {
  return std::vector<To>(v.begin(), v.end());
}

/// int_folds' functions, by its `op`.
const Op IntFolds[] = {{Reduce, Add},    {Reduce, Min},    {Inclusive, Max}, {Exclusive, Add},
                       {Inclusive, Min}, {Exclusive, Min}, {Exclusive, Max}};

/// What int_folds computes for `op` over each group of `local` consecutive elements (the last group
/// takes what is left).
std::vector<int> intFolds(const std::vector<int> &a, size_t local, int op) {
  return foldRuns(a, local, local, IntFolds[op]);
}

/// The sub-group size the device answers for kernel `name` in groups of `local`.
size_t subGroupSize(const Target &target, size_t local, const char *name = "sub_groups") {
  Setup cl(target.device());
  cl_program program = programFor(cl, target, Collectives);
  cl_kernel kernel = kernelNamed(program, name);
  size_t size = 0;
  REQUIRE(clGetKernelSubGroupInfo(kernel, cl.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                  sizeof size, &size, nullptr) == CL_SUCCESS);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  return size;
}

} // namespace

TEST_CASE("collectives: int reductions and scans, several group sizes", "[e2e][board][collectives]") {
  const size_t items = 768;
  auto a = randomInts(items, -1000000, 1000000, 21), b = randomInts(items, 0, 1, 22);
  for (size_t local : {1u, 16u, 96u, 256u})
    for (int op = 0; op < int(std::size(IntFolds)); ++op) {
      const auto expected = intFolds(a, local, op);
      for (const Target &target : Targets) {
        INFO("device: " << target.name << ", local size " << local << ", op " << op);
        CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "int_folds", a, b, op, {{items}, {local}}),
                            expected) == -1);
      }
    }
}

TEST_CASE("collectives: a partial last work-group", "[e2e][board][collectives]") {
  // OpenCL 2.0's non-uniform work-groups: 100 work-items in groups of 16, the last one of 4.
  const size_t items = 100;
  auto a = randomInts(items, -1000000, 1000000, 31), b = randomInts(items, 0, 1, 32);
  for (int op = 0; op < int(std::size(IntFolds)); ++op) {
    const auto expected = intFolds(a, 16, op);
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", op " << op);
      CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "int_folds", a, b, op, {{items}, {16}}), expected) ==
            -1);
    }
  }
}

TEST_CASE("collectives: long and ulong scans of values past 32 bits", "[e2e][board][collectives]") {
  // 320 work-items in groups of 64, and of 96 (the last of 32). Half the values are negative: as
  // ulongs, the largest.
  const size_t items = 320;
  std::mt19937_64 random(35);
  std::vector<int64_t> a(items);
  for (int64_t &x : a)
    x = int64_t(random() % (uint64_t(1) << 51)) - (int64_t(1) << 50);
  const std::vector<int> b(items);
  const Op ops[] = {{Inclusive, Add}, {Exclusive, Add}, {Exclusive, Min}, {Inclusive, Max}};
  for (size_t local : {64u, 96u})
    for (int op = 0; op < 4; ++op) {
      // Ops 1 and 3 fold ulongs.
      const auto expected = op % 2 ? converted<int64_t>(foldRuns(converted<uint64_t>(a), local, local, ops[op]))
                                   : foldRuns(a, local, local, ops[op]);
      for (const Target &target : Targets) {
        INFO("device: " << target.name << ", local size " << local << ", op " << op);
        CHECK(firstMismatch(runTwoInputs<int64_t>(Collectives, target, "long_scans", a, b, op, {{items}, {local}}),
                            expected) == -1);
      }
    }
}

TEST_CASE("collectives: barriers with both fences and scopes, and fences, between exchanges",
          "[e2e][board][collectives]") {
  // 1600 work-items: one a group, groups of 16 and 100, and of 256 (the last of 64).
  const size_t items = 1600;
  auto a = randomInts(items, -10000, 10000, 36), b = randomInts(items, -10000, 10000, 37);
  for (size_t local : {1u, 16u, 100u, 256u}) {
    std::vector<int> expected(items);
    for (size_t base = 0; base < items; base += local) {
      const size_t size = std::min(local, items - base);
      std::vector<int> v(size);
      for (size_t l = 0; l < size; ++l)
        v[l] = a[base + (l + 1) % size] * 3 + b[base + (l + 2) % size] + b[base + l] - a[base + l];
      for (size_t l = 0; l < size; ++l)
        expected[base + l] = v[l] * 5 + (v[size - 1 - l] ^ 0x55);
    }
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", local size " << local);
      CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "fenced_exchange", a, b, 0, {{items}, {local}}),
                          expected) == -1);
    }
  }
}

TEST_CASE("work-item functions with partial work-groups", "[e2e][board][collectives]") {
  // A 10 x 7 NDRange at offset (1, 2) in groups of 4 x 3: the last column of groups is 2 wide, the
  // last row 1 high. Then the largest groups the board takes (1,024 work-items, whose sizes and ids
  // its hardware computes in as many bits as they need): 64 x 40 in groups of 32 x 32, the last row
  // 8 high, and 2,000 in groups of 1,024, the last of 976.
  struct Shape {
    size_t width, height, localX, localY;
  };
  for (const Shape &shape : {Shape{10, 7, 4, 3}, Shape{64, 40, 32, 32}, Shape{2000, 1, 1024, 1}}) {
    const size_t width = shape.width, height = shape.height;
    std::vector<int> a(width * height * 4), b(a.size());
    std::vector<int> expected(a.size());
    const size_t groupsX = (width + shape.localX - 1) / shape.localX, groupsY = (height + shape.localY - 1) / shape.localY;
    for (size_t y = 0; y < height; ++y)
      for (size_t x = 0; x < width; ++x) {
        const size_t gx = x / shape.localX, gy = y / shape.localY, lx = x % shape.localX, ly = y % shape.localY;
        const size_t sizeX = std::min(shape.localX, width - gx * shape.localX);
        const size_t sizeY = std::min(shape.localY, height - gy * shape.localY);
        int *out = &expected[(y * width + x) * 4];
        out[0] = int(sizeX * 100 + sizeY);
        out[1] = int(shape.localX * 100 + shape.localY);
        out[2] = int(groupsX * 100 + groupsY);
        out[3] = int((ly * sizeX + lx) * 100 + gx * 10 + gy);
      }
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", " << width << " x " << height << " in groups of " << shape.localX
                      << " x " << shape.localY);
      CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "group_shape", a, b, 0,
                                            {{width, height}, {shape.localX, shape.localY}, {1, 2}}),
                          expected) == -1);
    }
  }
}

TEST_CASE("loops over a work-group's size with partial work-groups", "[e2e][board][collectives]") {
  // 1D: 300 work-items in groups of 64, the last of 44. 2D: 20 x 10 in groups of 8 x 4, the last
  // column of groups 4 wide and the last row 2 high, so the size changes from group to group.
  struct Shape {
    size_t width, height, localX, localY;
  };
  for (const Shape &shape : {Shape{300, 1, 64, 1}, Shape{20, 10, 8, 4}}) {
    const size_t groupsX = (shape.width + shape.localX - 1) / shape.localX;
    const size_t groupsY = (shape.height + shape.localY - 1) / shape.localY;
    const size_t enqueued = shape.localX * shape.localY;
    const auto a = randomInts(groupsX * groupsY * 2 * enqueued, -1000, 1000, 41);
    std::vector<int> b(a.size()), expected(a.size(), -1);
    for (size_t y = 0; y < shape.height; ++y)
      for (size_t x = 0; x < shape.width; ++x) {
        const size_t gx = x / shape.localX, gy = y / shape.localY;
        const size_t sizeX = std::min(shape.localX, shape.width - gx * shape.localX);
        const size_t items = sizeX * std::min(shape.localY, shape.height - gy * shape.localY);
        const size_t lid = (y % shape.localY) * sizeX + x % shape.localX;
        const int *group = &a[(gy * groupsX + gx) * 2 * enqueued];
        expected[y * shape.width + x] = group[lid] + 2 * group[lid + items];
      }
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", " << shape.width << " x " << shape.height);
      CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "group_strided_sums", a, b, 0,
                                            {{shape.width, shape.height}, {shape.localX, shape.localY}}),
                          expected) == -1);
    }
  }
}

TEST_CASE("async copies in partial work-groups", "[e2e][board][collectives]") {
  // 300 work-items in groups of 128: the last group has 44.
  const size_t items = 300, local = 128;
  auto a = randomInts(items, -10000, 10000, 41), b = randomInts(items, -100, 100, 42);
  std::vector<int> expected(items);
  for (size_t start = 0; start < items; start += local) {
    const size_t size = std::min(local, items - start);
    for (size_t l = 0; l < size; ++l)
      expected[start + l] = a[start + size - 1 - l] * 7 + b[start + l];
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "async_partial_groups", a, b, 7, {{items}, {local}}),
                        expected) == -1);
  }
}

TEST_CASE("work-item functions of a dimension known at run time", "[e2e][board][collectives]") {
  // A 10 x 6 NDRange at offset (1, 2) in groups of 4 x 3 (the last column 2 wide), each work-item
  // asking dimensions 0, 1 and the one past them (sizes 1, ids 0), and its linear ids.
  const size_t width = 10, height = 6;
  std::vector<int> a(width * height), b(a.size()), expected(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = int(i * 3 + 1);
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x) {
      struct Dimension {
        uint32_t size, id, local, groups, group, localId, enqueued, offset;
      };
      const Dimension dimensions[] = {
          {uint32_t(width), uint32_t(x + 1), uint32_t(x / 4 == 2 ? 2 : 4), 3, uint32_t(x / 4), uint32_t(x % 4), 4, 1},
          {uint32_t(height), uint32_t(y + 2), 3, 2, uint32_t(y / 3), uint32_t(y % 3), 3, 2},
          {1, 0, 1, 1, 0, 0, 1, 0}};
      uint32_t sum = uint32_t(y * width + x) * 29 +
                     (dimensions[1].localId * dimensions[0].local + dimensions[0].localId) * 37;
      for (const Dimension &d : dimensions)
        sum = sum * 31 + d.size * 7 + d.id * 5 + d.local * 3 + d.groups * 11 + d.group * 13 + d.localId * 17 +
              d.enqueued * 19 + d.offset * 23;
      expected[y * width + x] = int(sum * 31 + uint32_t(a[y * width + x]));
    }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "work_item_dims", a, b, 1,
                                          {{width, height}, {4, 3}, {1, 2}}),
                        expected) == -1);
  }
}

TEST_CASE("work-item functions of every dimension of a 3D NDRange", "[e2e][board][collectives]") {
  // 6 x 5 x 4 in groups of 3 x 5 x 2, and 7 x 5 x 3 in groups of 4 x 2 x 2, whose last groups are
  // partial in every dimension; both at a nonzero offset.
  struct Shape {
    std::array<size_t, 3> global, local, offset;
  };
  for (const Shape &shape : {Shape{{6, 5, 4}, {3, 5, 2}, {1, 2, 3}}, Shape{{7, 5, 3}, {4, 2, 2}, {5, 0, 2}}}) {
    const auto &global = shape.global, &local = shape.local;
    const size_t items = global[0] * global[1] * global[2];
    const std::vector<uint64_t> a(items * 4);
    const std::vector<int> b(items);
    std::vector<uint64_t> expected(a.size());
    for (size_t z = 0; z < global[2]; ++z)
      for (size_t y = 0; y < global[1]; ++y)
        for (size_t x = 0; x < global[0]; ++x) {
          const size_t id[] = {x, y, z}, linear = (z * global[1] + y) * global[0] + x;
          size_t localId[3], size[3];
          for (int d = 0; d < 3; ++d) {
            const size_t group = id[d] / local[d], groups = (global[d] + local[d] - 1) / local[d];
            localId[d] = id[d] % local[d];
            size[d] = std::min(local[d], global[d] - group * local[d]);
            const uint64_t fields[] = {id[d] + shape.offset[d], localId[d], group, global[d], size[d], groups,
                                       shape.offset[d], local[d]};
            uint64_t packed = 0;
            for (int f = 0; f < 8; ++f)
              packed |= fields[f] << (8 * f);
            expected[linear * 4 + d] = packed;
          }
          const size_t localLinear = (localId[2] * size[1] + localId[1]) * size[0] + localId[0];
          expected[linear * 4 + 3] = linear | localLinear << 16 | uint64_t(3) << 32;
        }
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", " << global[0] << " x " << global[1] << " x " << global[2]
                      << " in groups of " << local[0] << " x " << local[1] << " x " << local[2]);
      const Range range{{global.begin(), global.end()}, {local.begin(), local.end()},
                        {shape.offset.begin(), shape.offset.end()}};
      CHECK(firstMismatch(runTwoInputs<uint64_t>(Collectives, target, "work_items_3d", a, b, 0, range), expected) ==
            -1);
    }
  }
}

TEST_CASE("collectives: all, any and broadcast", "[e2e][board][collectives]") {
  const size_t items = 640, local = 16;
  auto a = randomInts(items, -50, 50, 23);
  std::vector<int> b{-45, 7};
  b.resize(items);
  for (int source : {0, 5, 15}) {
    std::vector<int> expected(items);
    for (size_t start = 0; start < items; start += local) {
      bool all = true, any = false;
      for (size_t l = 0; l < local; ++l) {
        all = all && a[start + l] > b[0];
        any = any || a[start + l] == b[1];
      }
      for (size_t l = 0; l < local; ++l)
        expected[start + l] = a[start + source] * 4 + int(all) * 2 + int(any);
    }
    // The data must exercise both answers of each vote.
    bool someAll = false, someAny = false, someNotAny = false;
    for (size_t start = 0; start < items; start += local) {
      someAll = someAll || (expected[start] & 2);
      someAny = someAny || (expected[start] & 1);
      someNotAny = someNotAny || !(expected[start] & 1);
    }
    REQUIRE((someAll && someAny && someNotAny));
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", source " << source);
      CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "votes", a, b, source, {{items}, {local}}),
                          expected) == -1);
    }
  }
}

TEST_CASE("collectives: unsigned, long and float elements", "[e2e][board][collectives]") {
  const size_t items = 512, local = 64;
  const auto ints = randomInts(items, -1000000, 1000000, 24), eighths = randomInts(items, -4000, 4000, 25);
  std::vector<float> a(items);
  for (size_t i = 0; i < items; ++i)
    a[i] = float(eighths[i]) / 8.0f + 1.0f / 3.0f; // sums round
  for (int op = 0; op < 4; ++op) {
    std::vector<float> expected(items);
    for (size_t start = 0; start < items; start += local) {
      unsigned minimum = ~0u;
      long sum = 0;
      float fsum = 0.0f, fmax = -std::numeric_limits<float>::infinity();
      for (size_t l = 0; l < local; ++l) {
        minimum = std::min(minimum, unsigned(ints[start + l]));
        sum += long(ints[start + l]) * 1000003L;
        fsum += a[start + l];
        if (op == 3)
          expected[start + l] = fmax;
        fmax = std::max(fmax, a[start + l]);
      }
      if (op < 3)
        for (size_t l = 0; l < local; ++l)
          expected[start + l] = op == 0 ? float(minimum) : op == 1 ? float(sum % 1000000L) : fsum;
    }
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", op " << op);
      CHECK(firstMismatch(runTwoInputs<float>(Collectives, target, "typed_folds", a, ints, op, {{items}, {local}}),
                          expected) == -1);
    }
  }
}

TEST_CASE("collectives: a 2D group in local linear id order", "[e2e][board][collectives]") {
  const size_t width = 8, height = 16;
  auto a = randomInts(width * height, -1000, 1000, 26), b = randomInts(width * height, 0, 0, 27);
  std::vector<int> expected(a.size());
  for (size_t gy = 0; gy < height / 8; ++gy)
    for (size_t gx = 0; gx < width / 4; ++gx) {
      auto at = [&](size_t lx, size_t ly) { return (gy * 8 + ly) * width + gx * 4 + lx; };
      int sum = 0;
      for (size_t l = 0; l < 32; ++l)
        sum += a[at(l % 4, l / 4)];
      int running = 0;
      for (size_t l = 0; l < 32; ++l) {
        running += a[at(l % 4, l / 4)];
        expected[at(l % 4, l / 4)] = a[at(1, 2)] + sum * 3 + running * 7;
      }
    }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "grid", a, b, 0, {{width, height}, {4, 8}}),
                        expected) == -1);
  }
}

TEST_CASE("collectives: in a loop with a data-dependent trip count", "[e2e][board][collectives]") {
  const size_t items = 384, local = 32;
  auto a = randomInts(items, -500, 500, 28), b = randomInts(items, 0, 3, 29);
  std::vector<int> expected(a);
  for (size_t g = 0; g < items / local; ++g) {
    int *v = expected.data() + g * local;
    for (int r = 0; r < b[g]; ++r) {
      const int maximum = *std::max_element(v, v + local);
      int running = 0;
      for (size_t l = 0; l < local; ++l) {
        const int before = running;
        running += v[l];
        v[l] = (v[l] + maximum + before) % 1009;
      }
    }
  }
  for (const Target &target : Targets) {
    INFO("device: " << target.name);
    CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "rounds", a, b, 0, {{items}, {local}}), expected) ==
          -1);
  }
}

TEST_CASE("collectives: sub-groups of the device's size", "[e2e][board][collectives]") {
  const size_t items = 1280;
  auto a = randomInts(items, -100, 100, 30);
  std::vector<int> b(items);
  for (const Target &target : Targets)
    for (size_t local : {20u, 64u, 256u}) {
      // Sub-groups are runs of `size` work-items in local linear id order, the last maybe shorter.
      const size_t size = subGroupSize(target, local);
      REQUIRE(size >= 2);
      const size_t count = (local + size - 1) / size;
      for (int op = 0; op < 6; ++op) {
        std::vector<int> expected(items);
        for (size_t group = 0; group < items; group += local)
          for (size_t first = group; first < group + local; first += size) {
            const size_t members = std::min(size, group + local - first), id = (first - group) / size;
            int sum = 0, maximum = std::numeric_limits<int>::min();
            for (size_t k = 0; k < members; ++k)
              sum += a[first + k];
            for (size_t k = 0; k < members; ++k) {
              const size_t i = first + k;
              maximum = std::max(maximum, a[i]);
              const int results[] = {int(k + 1000 * id + 100000 * count), int(members + 1000 * size + 1000000 * count),
                                     sum, maximum, a[first + 1], a[i ^ 1] * 2};
              expected[i] = results[op];
            }
          }
        INFO("device: " << target.name << ", local size " << local << ", sub-group size " << size << ", op " << op);
        CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "sub_groups", a, b, op, {{items}, {local}}),
                            expected) == -1);
      }
    }
}

TEST_CASE("collectives: sub-group votes, reductions and exclusive scans of int and uint",
          "[e2e][board][collectives]") {
  const size_t items = 1280;
  auto a = randomInts(items, -50, 50, 38);
  // Every third run of 64 all positive: whatever their size, some sub-groups vote all(v > 0).
  for (size_t i = 0; i < items; ++i)
    if (i / 64 % 3 == 0)
      a[i] = std::abs(a[i]) + 1;
  std::vector<int> b(items), positive(items), sevens(items);
  b[0] = 0;
  b[1] = 7;
  for (size_t i = 0; i < items; ++i) {
    positive[i] = a[i] > b[0];
    sevens[i] = a[i] == b[1];
  }
  // Ops 1 to 5 over int, 6 to 10 the same over uint.
  const Op ops[] = {{Reduce, Min}, {Reduce, Max}, {Exclusive, Add}, {Exclusive, Min}, {Exclusive, Max}};
  for (const Target &target : Targets)
    for (size_t local : {20u, 128u}) {
      const size_t size = subGroupSize(target, local, "sub_group_folds");
      REQUIRE(size >= 2);
      for (int op = 0; op <= 10; ++op) {
        std::vector<int> expected;
        if (op == 0) {
          // all and any: the least and the greatest of the answers.
          const auto all = foldRuns(positive, local, size, {Reduce, Min});
          const auto any = foldRuns(sevens, local, size, {Reduce, Max});
          for (size_t i = 0; i < items; ++i)
            expected.push_back(all[i] * 2 + any[i]);
          // The data must exercise both answers of each vote.
          for (int answer : {0, 1, 2, 3})
            REQUIRE(std::count(expected.begin(), expected.end(), answer) > 0);
        } else if (op <= 5)
          expected = foldRuns(a, local, size, ops[op - 1]);
        else
          expected = converted<int>(foldRuns(converted<uint32_t>(a), local, size, ops[op - 6]));
        INFO("device: " << target.name << ", local size " << local << ", sub-group size " << size << ", op " << op);
        CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "sub_group_folds", a, b, op, {{items}, {local}}),
                            expected) == -1);
      }
    }
}

TEST_CASE("collectives: sub-group queries alone, with a partial last work-group", "[e2e][board][collectives]") {
  // 1000 work-items: the last group has 40 of 64, or 40 of 48. A partial group has fewer sub-groups,
  // its last one maybe shorter; the maximum and the enqueued count are the dispatch's.
  const size_t items = 1000;
  std::vector<int> a(items), b(items);
  for (const Target &target : Targets)
    for (size_t local : {64u, 48u}) {
      const size_t size = subGroupSize(target, local, "sub_group_queries");
      REQUIRE(size >= 2);
      for (int op = 0; op < 2; ++op) {
        std::vector<int> expected(items);
        for (size_t group = 0; group < items; group += local) {
          const size_t end = std::min(group + local, items), count = (end - group + size - 1) / size;
          for (size_t first = group; first < end; first += size)
            for (size_t i = first; i < std::min(first + size, end); ++i) {
              const size_t members = std::min(size, end - first), id = (first - group) / size;
              expected[i] = op == 0 ? int(i - first + 1000 * id + 100000 * count)
                                    : int(members + 1000 * size + 1000000 * ((local + size - 1) / size));
            }
        }
        INFO("device: " << target.name << ", local size " << local << ", sub-group size " << size << ", op " << op);
        CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "sub_group_queries", a, b, op, {{items}, {local}}),
                            expected) == -1);
      }
    }
}

TEST_CASE("collectives: sub-groups on different paths between work-group barriers", "[e2e][board][collectives]") {
  const size_t items = 1200;
  auto a = randomInts(items, -100, 100, 31);
  std::vector<int> b(items);
  for (const Target &target : Targets)
    for (size_t local : {200u, 240u}) {
      const size_t size = subGroupSize(target, local);
      REQUIRE(size % 2 == 0);
      std::vector<int> expected(a);
      for (size_t group = 0; group < items; group += local) {
        for (size_t first = group; first < group + local; first += size) {
          const size_t id = (first - group) / size, end = std::min(first + size, group + local);
          int *v = expected.data() + first;
          const size_t members = end - first;
          for (size_t r = 0; r < id % 3; ++r) {
            const std::vector<int> before(v, v + members);
            int sum = 0;
            for (int x : before)
              sum += x;
            for (size_t k = 0; k < members; ++k)
              v[k] += before[k ^ 1] + sum;
          }
          if (id & 1)
            for (size_t k = 1; k < members; ++k)
              v[k] += v[k - 1];
        }
        const int maximum = *std::max_element(expected.begin() + group, expected.begin() + group + local);
        for (size_t i = group; i < group + local; ++i)
          expected[i] += maximum;
      }
      INFO("device: " << target.name << ", local size " << local << ", sub-group size " << size);
      CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "divergent_sub_groups", a, b, 0, {{items}, {local}}),
                          expected) == -1);
    }
}

TEST_CASE("collectives: one event array reused across two phases of chained async copies",
          "[e2e][board][barriers]") {
  const size_t groups = 5, local = 16;
  const auto a = randomInts(groups * 48, -1000, 1000, 61);
  for (int n : {16, 13, 1}) {
    std::vector<int> expected(a.size(), -1);
    for (size_t g = 0; g < groups; ++g) {
      const int *in = a.data() + g * 48;
      int *mine = expected.data() + g * 48;
      for (int i = 0; i < n; ++i) {
        mine[i] = in[i];
        mine[16 + i] = in[16 + i] + in[n - 1 - i] - in[32 + i];
        mine[32 + i] = in[32 + i];
      }
    }
    for (const Target &target : Targets) {
      INFO("device: " << target.name << ", n " << n);
      CHECK(firstMismatch(runTwoInputs<int>(Collectives, target, "async_events_reused", a, a, n,
                                            {{groups * local}, {local}}),
                          expected) == -1);
    }
  }
}
