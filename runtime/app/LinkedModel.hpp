#pragma once
// The model linked into an executable built by `pvic build`: the AOT object's symbols
// (pvi_prior_value, ..., pvi_model_info; see runtime/abi/factor_abi.h).
#include "runtime/app/LoadedModel.hpp"

namespace pvi {

// Throws std::runtime_error when the linked object lacks a required symbol or its description
// is malformed.
LoadedModel linkedModel();

}  // namespace pvi
