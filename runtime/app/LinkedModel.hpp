#pragma once
// The model linked into an executable built by `pvic build`: the AOT object's symbols (the
// factor ABI's functions and pvi_model_info; see runtime/abi/factor_abi.h).
#include "runtime/app/LoadedModel.hpp"

namespace pvi {

// Throws std::runtime_error when the linked object lacks a required symbol, its description is
// malformed or it was compiled for another factor ABI version (PVI_FACTOR_ABI_VERSION).
LoadedModel linkedModel();

// The same checks on a model object's description (`info`, JSON; may be null) and functions,
// however they were found.
LoadedModel loadModelObject(const char* info, const pvi_model_code& code);

}  // namespace pvi
