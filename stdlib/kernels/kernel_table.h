/* The kernel symbol table: every symbol of kernels.def with its address, for the JIT to register
 * (name -> address) without dlsym. Generated from kernels.def by kernel_table.cpp. */
#ifndef PVI_STDLIB_KERNEL_TABLE_H
#define PVI_STDLIB_KERNEL_TABLE_H

#ifdef __cplusplus
extern "C" {
#endif

struct pvi_kernel_entry {
  const char *name; /* the C symbol, e.g. "pvi_normal_lpdf" */
  void *address;    /* the function's address */
};

/* Terminated by {NULL, NULL}. */
extern const struct pvi_kernel_entry pvi_kernel_table[];

#ifdef __cplusplus
}
#endif

#endif
