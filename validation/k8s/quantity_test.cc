// Tests of the quantity grammar, comparison and canonical text, after k8s.io/apimachinery
// pkg/api/resource quantity_test.go (TestQuantityParse, TestQuantityString, TestQuantityCmp).
#include "validation/k8s/quantity.h"

#include <doctest/doctest.h>

#include <string>

namespace jobset {
namespace {

std::string Canonical(const std::string& s) {
  ParsedQuantity q = ParseQuantity(s);
  return q.value ? QuantityString(*q.value) : "error: " + q.error;
}

int Cmp(const std::string& a, const std::string& b) {
  ParsedQuantity x = ParseQuantity(a), y = ParseQuantity(b);
  REQUIRE(x.value);
  REQUIRE(y.value);
  return Compare(*x.value, *y.value);
}

TEST_CASE("quantity: canonical text (Quantity.String)") {
  CHECK(Canonical("1") == "1");
  CHECK(Canonical("1.5") == "1500m");
  CHECK(Canonical("0.5") == "500m");
  CHECK(Canonical("2000m") == "2");
  CHECK(Canonical("2000") == "2k");
  CHECK(Canonical("100m") == "100m");
  CHECK(Canonical("1024Mi") == "1Gi");
  CHECK(Canonical("1.5Gi") == "1536Mi");
  CHECK(Canonical("1000Mi") == "1000Mi");
  CHECK(Canonical("512") == "512");
  CHECK(Canonical("0.5Ki") == "512");  // Below 1024: DecimalSI.
  CHECK(Canonical("1e3") == "1e3");
  CHECK(Canonical("1.5e3") == "1500");
  CHECK(Canonical("-1") == "-1");
  CHECK(Canonical("0") == "0");
  CHECK(Canonical("0.0000000001") == "1n");  // Rounded up to nano units.
  CHECK(Canonical("1.") == "1");
  CHECK(Canonical("1.G") == "1G");
}

TEST_CASE("quantity: what ParseQuantity refuses") {
  const std::string format =
      "error: quantities must match the regular expression "
      "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
  CHECK(Canonical("") == format);
  CHECK(Canonical("4GB") == format);
  CHECK(Canonical("1.2.3") == format);
  CHECK(Canonical("1K") == "error: unable to parse quantity's suffix");
  CHECK(Canonical("1mi") == "error: unable to parse quantity's suffix");
  CHECK(Canonical("1gi") == format);  // 'g' is no suffix letter at all.
}

TEST_CASE("quantity: exact comparison") {
  CHECK(Cmp("1", "1000m") == 0);
  CHECK(Cmp("1Gi", "1073741824") == 0);
  CHECK(Cmp("2", "1") > 0);
  CHECK(Cmp("1G", "1Gi") < 0);
  CHECK(Cmp("-1", "0") < 0);
  CHECK(Cmp("0.1", "100m") == 0);
  CHECK(Cmp("100000000000000000000", "99999999999999999999") > 0);
}

TEST_CASE("quantity: whole numbers and integer values") {
  CHECK(IsWholeNumber(*ParseQuantity("2").value));
  CHECK(IsWholeNumber(*ParseQuantity("2000m").value));
  CHECK_FALSE(IsWholeNumber(*ParseQuantity("500m").value));
  CHECK(IntegerValue(*ParseQuantity("2Mi").value) == 2097152);
  CHECK(IntegerValue(*ParseQuantity("1500m").value) == 2);  // Rounded up.
}

}  // namespace
}  // namespace jobset
