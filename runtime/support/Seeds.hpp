#pragma once
// Reproducible random streams for PVI. Every Monte Carlo draw of the runtime comes from a
// std::mt19937_64 seeded with a value derived here from a base seed and small integers (round,
// factor index, update count), so a run is a deterministic function of its base seed whatever
// the thread timing: each client update owns its stream.
//
// deriveSeed mixes with the SplitMix64 finaliser (Steele, Lea, Flood 2014): distinct inputs give
// well-spread, effectively independent seeds.
#include <cstdint>
#include <random>

namespace pvi::support {

inline std::uint64_t splitMix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

inline std::uint64_t deriveSeed(std::uint64_t base, std::uint64_t a, std::uint64_t b = 0, std::uint64_t c = 0) {
  std::uint64_t s = splitMix64(base);
  s = splitMix64(s ^ a);
  s = splitMix64(s ^ (b + 0x632BE59BD9B4E019ull));
  return splitMix64(s ^ (c + 0x2545F4914F6CDD1Dull));
}

// The seed of synchronous round `round` when all clients share one random stream (common random
// numbers), and of global VI's iteration `round`: the two must agree for Property 3.1.
inline std::uint64_t roundSeed(std::uint64_t base, std::uint64_t round) { return deriveSeed(base, 0xC0FFEEull, round); }

// A uniform double in [0, 1) from 53 random bits (the recipe of StandardNormal.hpp).
inline double uniform01(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

}  // namespace pvi::support
