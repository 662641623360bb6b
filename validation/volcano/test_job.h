// For the tests of the Volcano units: a Volcano Job decoded from YAML text.
#pragma once

#include <doctest/doctest.h>

#include <string>

#include "validation/core/loader.h"
#include "validation/volcano/types.h"

namespace jobset {

/// The Volcano Job of the first document of `yaml`; the test fails when there is none.
inline VolcanoJob DecodeTestJob(const std::string& yaml) {
  SourceFile f = ParseSource("job.yaml", yaml);
  REQUIRE(!f.documents.empty());
  return DecodeVolcanoJob(f.documents[0].root);
}

}  // namespace jobset
