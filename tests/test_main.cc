// The one main() of the unit tests; the tests live beside the code as *_test.cc.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
