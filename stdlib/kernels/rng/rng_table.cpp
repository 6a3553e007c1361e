// The symbol table of the _rng kernels, generated from rng.def.
#include "stdlib/kernels/rng/rng.h"

extern "C" const pvi_rng_kernel_entry pvi_rng_kernel_table[] = {
#define PVI_RNG_KERNEL(symbol) {#symbol, reinterpret_cast<void*>(&symbol)},
#include "stdlib/kernels/rng/rng.def"
#undef PVI_RNG_KERNEL
    {"pvi_rng_seed", reinterpret_cast<void*>(&pvi_rng_seed)},
    {"pvi_rng_next", reinterpret_cast<void*>(&pvi_rng_next)},
    {nullptr, nullptr},
};
