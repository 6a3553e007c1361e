#pragma once
// Umbrella header: the mean-field and full-covariance Gaussian families over the unconstrained
// global vector z (design section 6). Each family has
//   parameter structs            *Params.hpp       (natural, mean, standard, stable; family tag)
//   natural <-> mean <-> standard *Maps.hpp
//   log-partition A and grad A   *LogPartition.hpp
//   KL and entropy               *Divergence.hpp
//   log density of a point       *Density.hpp
//   reparameterised sampling     *Sampling.hpp
//   stable parameters and the gradient chain rule  *Stable.hpp
//   factor / distribution checks *Validity.hpp
// plus natural-parameter arithmetic for PVI (NaturalArithmetic.hpp).
#include "runtime/families/ConditionalGaussian.hpp"
#include "runtime/families/FullGaussianDensity.hpp"
#include "runtime/families/FullGaussianDivergence.hpp"
#include "runtime/families/FullGaussianLogPartition.hpp"
#include "runtime/families/FullGaussianMaps.hpp"
#include "runtime/families/FullGaussianParams.hpp"
#include "runtime/families/FullGaussianSampling.hpp"
#include "runtime/families/FullGaussianStable.hpp"
#include "runtime/families/FullGaussianValidity.hpp"
#include "runtime/families/MeanFieldGaussianDensity.hpp"
#include "runtime/families/MeanFieldGaussianDivergence.hpp"
#include "runtime/families/MeanFieldGaussianLogPartition.hpp"
#include "runtime/families/MeanFieldGaussianMaps.hpp"
#include "runtime/families/MeanFieldGaussianParams.hpp"
#include "runtime/families/MeanFieldGaussianSampling.hpp"
#include "runtime/families/MeanFieldGaussianStable.hpp"
#include "runtime/families/MeanFieldGaussianValidity.hpp"
#include "runtime/families/NaturalArithmetic.hpp"
#include "runtime/families/StandardNormal.hpp"
#include "runtime/families/Validity.hpp"
#include "runtime/families/WassersteinBarycentre.hpp"
