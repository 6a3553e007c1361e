// The random number state: xoshiro256** seeded through splitmix64 (both by Blackman and Vigna,
// public domain algorithms, written here from their published definitions).
#include "stdlib/kernels/rng/rng.h"

namespace {

uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

extern "C" void pvi_rng_seed(pvi_rng* rng, uint64_t seed, uint64_t stream) {
  // Mix the stream into the seed first, so that (seed, stream) and (seed + 1, stream - 1) differ.
  uint64_t x = seed;
  uint64_t mixed = splitmix64(x) ^ (stream * 0xd1b54a32d192ed03ULL);
  for (uint64_t& s : rng->s) s = splitmix64(mixed);
  if ((rng->s[0] | rng->s[1] | rng->s[2] | rng->s[3]) == 0) rng->s[0] = 1;  // the one invalid state
}

extern "C" uint64_t pvi_rng_next(pvi_rng* rng) {
  uint64_t* s = rng->s;
  const uint64_t result = rotl(s[1] * 5, 7) * 9;
  const uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}
