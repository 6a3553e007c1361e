#pragma once
// LLVM function types derived from the factor ABI's C function pointer types
// (runtime/abi/factor_abi.h), so that every generated function has exactly its ABI type.
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/LLVMContext.h>

#include <cstdint>
#include <type_traits>

namespace pvi::abi {

template <class T>
llvm::Type* llvmType(llvm::LLVMContext& ctx) {
  if constexpr (std::is_void_v<T>) return llvm::Type::getVoidTy(ctx);
  else if constexpr (std::is_same_v<T, double>) return llvm::Type::getDoubleTy(ctx);
  else if constexpr (std::is_same_v<T, int64_t>) return llvm::Type::getInt64Ty(ctx);
  else if constexpr (std::is_pointer_v<T>) return llvm::PointerType::getUnqual(ctx);
  else static_assert(!sizeof(T), "a C type the factor ABI does not use");
}

template <class Fn>
struct FunctionTypeOf;

template <class R, class... Args>
struct FunctionTypeOf<R (*)(Args...)> {
  static llvm::FunctionType* get(llvm::LLVMContext& ctx) {
    return llvm::FunctionType::get(llvmType<R>(ctx), {llvmType<Args>(ctx)...}, /*isVarArg=*/false);
  }
};

// The LLVM type of a function of pointer type Fn, e.g. functionType<pvi_dims_fn>(ctx).
template <class Fn>
llvm::FunctionType* functionType(llvm::LLVMContext& ctx) {
  return FunctionTypeOf<Fn>::get(ctx);
}

}  // namespace pvi::abi
