#include "runtime/model/ModelInfo.hpp"

namespace pvi {

uint64_t fnv1a64(std::string_view bytes, uint64_t hash) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

uint64_t modelSourceHash(std::string_view source, const DataSchema& schema) {
  uint64_t h = fnv1a64(source);
  h = fnv1a64(std::string_view("\0", 1), h);
  h = fnv1a64("partition " + schema.partitionName + "\n", h);
  for (const auto& [block, fields] : {std::pair{"shared ", &schema.shared}, std::pair{"partition ", &schema.partition}})
    for (const DataField& f : *fields) h = fnv1a64(block + f.name + " " + f.type + "\n", h);
  return h;
}

std::string hashText(uint64_t hash) {
  static const char digits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int k = 15; k >= 0; --k, hash >>= 4) out[static_cast<size_t>(k)] = digits[hash & 0xf];
  return out;
}

}  // namespace pvi
