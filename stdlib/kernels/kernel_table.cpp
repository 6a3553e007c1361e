// The kernel symbol table, generated from kernels.def.
#include "stdlib/kernels/kernel_table.h"

#include "stdlib/kernels/kernels.h"

extern "C" const struct pvi_kernel_entry pvi_kernel_table[] = {
#define PVI_KERNEL(symbol) {#symbol, reinterpret_cast<void*>(&symbol)},
#include "stdlib/kernels/kernels.def"
#undef PVI_KERNEL
    {nullptr, nullptr},
};
