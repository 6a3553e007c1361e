#pragma once
// Everything the runtime needs to know about a model besides its code: its data blocks and
// the declared shapes and transforms of its parameters and generated quantities, the factor
// ABI version it was compiled for and a hash of its source. The compiler produces it; an
// AOT-built executable carries it as JSON (symbol pvi_model_info), so it needs no compiler.
//
// Concrete sizes depend on the data; the generated shapes functions (factor_abi.h) compute
// them, and VariableLayout (VariableLayout.hpp) turns them into names such as "beta.3".
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/abi/factor_abi.h"
#include "runtime/model/DataSchema.hpp"

namespace pvi {

struct ModelInfo {
  int abiVersion = PVI_FACTOR_ABI_VERSION;   // the factor ABI the code was compiled for
  uint64_t sourceHash = 0;                   // modelSourceHash of the source and data schema
  std::string name;                          // the model file's stem, for output headers
  DataSchema data;
  std::vector<VariableInfo> globals;         // z, in order
  std::vector<VariableInfo> hypers;          // theta
  std::vector<VariableInfo> locals;          // w_j
  std::vector<VariableInfo> generatedShared; // generated quantities that need only the globals
  std::vector<VariableInfo> generatedPartition;  // ... and those that need a partition
  // The _rng calls of the generated quantities ("normal_rng at 12:5"), by the index a failing
  // one reports (PVI_STATUS_RNG_DOMAIN).
  std::vector<std::string> rngCalls;
  // The statements a failing index check names ("12:5: y[n] ~ normal(mu, sigma)"), by the site
  // its status carries (PVI_STATUS_INDEX_OUT_OF_RANGE_AT).
  std::vector<std::string> statements;
};

// 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3) of `bytes`, continuing
// from `hash`. Stable across platforms and builds.
uint64_t fnv1a64(std::string_view bytes, uint64_t hash = 0xcbf29ce484222325ULL);

// The hash identifying a model for federation and cached builds: FNV-1a 64 over the source
// text's bytes, a NUL byte, then the data schema written as
//   "partition " + partition name + "\n", and for each shared then each per-partition data
//   variable: "shared " or "partition ", name, " ", declared type, "\n".
// The file name does not enter it, so the same source gives the same hash wherever it lives.
uint64_t modelSourceHash(std::string_view source, const DataSchema& schema);

// The hash as 16 lowercase hexadecimal digits (as in the JSON description).
std::string hashText(uint64_t hash);

std::string toJson(const ModelInfo& info);
// Throws std::runtime_error on malformed text, and when the description was compiled for
// another factor ABI version (its "abi_version", 0 when absent, is not PVI_FACTOR_ABI_VERSION);
// the message names both versions.
ModelInfo modelInfoFromJson(const std::string& text);

}  // namespace pvi
