// schema_gen: writes a generated schema of schemas/ from the upstream CRD it is taken from (the
// CRD's name says which file):
//
//   build/schema_gen corpus/jobset/crd/jobset.x-k8s.io_jobsets.yaml >
//   schemas/jobset.v1alpha2.crd.json
//   build/schema_gen corpus/volcano/crd/batch.volcano.sh_jobs.yaml >
//   schemas/volcano.v1alpha1.crd.json
//
// The corpus tests of validation/schema/crd_import_test.cc fail when a committed file differs
// from what this prints for the CRD of the corpus.
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "validation/core/loader.h"
#include "validation/schema/crd_import.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: schema_gen CRD.yaml > schemas/" << jobset::JobSetCrdFile().file << " (or "
              << jobset::VolcanoCrdFile().file << ")\n";
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  if (!in) {
    std::cerr << "schema_gen: cannot read " << argv[1] << "\n";
    return 1;
  }
  std::ostringstream text;
  text << in.rdbuf();
  jobset::SourceFile file = jobset::ParseSource(argv[1], text.str());
  if (file.documents.empty() || !file.documents[0].parsed) {
    std::cerr << "schema_gen: " << argv[1] << " is not a YAML document\n";
    return 1;
  }
  const jobset::GeneratedSchemaFile* generated = jobset::GeneratedFileFor(file.documents[0].root);
  if (!generated) {
    std::cerr << "schema_gen: " << argv[1] << " is not a CRD schema_gen knows\n";
    return 1;
  }
  nlohmann::json doc;
  std::string error;
  if (!jobset::GenerateDefinitions(file.documents[0].root, *generated, &doc, &error)) {
    std::cerr << "schema_gen: " << argv[1] << ": " << error << "\n";
    return 1;
  }
  std::cout << jobset::RenderGenerated(doc);
  return 0;
}
