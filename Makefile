# The two commands: `make demo` and `make test`. Both install what is missing first.
DEPS := cmake g++ make pkg-config libyaml-cpp-dev nlohmann-json3-dev libvalijson-dev \
        libcpp-httplib-dev libssl-dev libcli11-dev doctest-dev libre2-dev libmimalloc-dev \
        clang-14 libclang-rt-14-dev
# Tools some tests drive; each test skips cleanly when its tool is absent.
# (clang-format-14 and clang-tidy-14: the format and tidy tests, and `make tidy`.)
TEST_TOOLS := openssl bash bash-completion zsh fish git pre-commit python3 clang-format-14 \
              clang-tidy-14
BUILD ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
# Seconds each fuzz target runs in `make test` (docs/fuzzing.md: longer runs).
FUZZ_SECONDS ?= 60
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?= -DJOBSET_WERROR=ON
# The upstream corpus some tests read (README: "The upstream corpus"); unset, CMake keeps its
# setting, whose default is corpus/ (make corpus). Also taken from the environment.
JOBSET_CORPUS_DIR ?=
CORPUS_FLAG := $(if $(JOBSET_CORPUS_DIR),-DJOBSET_CORPUS_DIR=$(abspath $(JOBSET_CORPUS_DIR)))

.PHONY: all deps build demo test test-asan test-fuzz tidy bench dist corpus clean

all: build

deps:
	@missing=""; for p in $(DEPS) $(TEST_TOOLS); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
	      apt-get install -y -qq --no-install-recommends $$missing; \
	  else \
	    echo "Missing packages. Run:"; \
	    echo "  sudo apt-get install -y --no-install-recommends$$missing"; exit 1; \
	  fi; \
	fi

CONFIGURE := cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) $(CORPUS_FLAG)

build: deps
	$(CONFIGURE) >/dev/null
	cmake --build $(BUILD) -j $(JOBS)

demo: build
	@echo '$$ kubectl-jobset lint -R examples/'
	@$(BUILD)/kubectl-jobset lint -R examples/ || true
	@echo
	@echo
	@echo '$$ kubectl-jobset explain examples/training-fail-fast.yaml'
	@$(BUILD)/kubectl-jobset explain examples/training-fail-fast.yaml
	@for f in examples/failure-policies/[1-5]-*.yaml; do \
	  case $$f in *scenario*) continue;; esac; \
	  echo "$$ kubectl-jobset explain --feature-gates RestartJob=true $$f"; \
	  $(BUILD)/kubectl-jobset explain --feature-gates RestartJob=true $$f; done
	@echo '$$ kubectl-jobset simulate examples/failure-policies/3-unlimited-on-maintenance.yaml --scenario examples/failure-policies/3-scenario.yaml'
	@$(BUILD)/kubectl-jobset simulate examples/failure-policies/3-unlimited-on-maintenance.yaml \
	  --scenario examples/failure-policies/3-scenario.yaml
	@echo
	@for f in examples/volcano/[1-3]-*-*.yaml; do \
	  case $$f in *scenario*) continue;; esac; \
	  echo "$$ kubectl-jobset explain $$f"; $(BUILD)/kubectl-jobset explain $$f; done
	@echo '$$ kubectl-jobset simulate examples/volcano/2-mpi-exit-codes.yaml --scenario examples/volcano/2-scenario.yaml'
	@$(BUILD)/kubectl-jobset simulate examples/volcano/2-mpi-exit-codes.yaml \
	  --scenario examples/volcano/2-scenario.yaml
	@echo
	@echo '$$ kubectl-jobset simulate examples/volcano/3-task-overrides-job.yaml --fail worker/1:PodFailed:1 --fail ps/0:PodPending --fail worker:TaskCompleted'
	@$(BUILD)/kubectl-jobset simulate examples/volcano/3-task-overrides-job.yaml \
	  --fail worker/1:PodFailed:1 --fail ps/0:PodPending --fail worker:TaskCompleted
	@echo
	@for f in examples/framework/tensorflow.yaml examples/framework/mapreduce.yaml \
	    examples/framework/arbitrator.yaml; do \
	  echo "$$ kubectl-jobset explain $$f"; $(BUILD)/kubectl-jobset explain $$f; done
	@echo '$$ kubectl-jobset simulate examples/framework/tensorflow.yaml --scenario examples/framework/scenario.yaml'
	@$(BUILD)/kubectl-jobset simulate examples/framework/tensorflow.yaml \
	  --scenario examples/framework/scenario.yaml
	@echo
	@echo "$$ kubectl-jobset simulate examples/broken/framework-traps.yaml --fail 'worker/0:1,worker/1:1,worker/2:1,worker/3:1' --fail evaluator/0:137"
	@$(BUILD)/kubectl-jobset simulate examples/broken/framework-traps.yaml \
	  --fail 'worker/0:1,worker/1:1,worker/2:1,worker/3:1' --fail evaluator/0:137
	@echo
	@echo '$$ kubectl-jobset simulate examples/framework/tensorflow.yaml --monte-carlo --node-mttf 720h --run-time 72h'
	@$(BUILD)/kubectl-jobset simulate examples/framework/tensorflow.yaml --monte-carlo \
	  --node-mttf 720h --run-time 72h
	@echo
	@echo '$$ kubectl-jobset why crashloop -f tests/why/crashloop.json  # a recorded (synthetic) history'
	@$(BUILD)/kubectl-jobset why crashloop -f tests/why/crashloop.json || true
	@echo '$$ kubectl-jobset why vcjob/sim -f tests/why/volcano-evicted-retries.json'
	@$(BUILD)/kubectl-jobset why vcjob/sim -f tests/why/volcano-evicted-retries.json || true
	@echo
	@echo '$$ kubectl-jobset netcheck plan --nodes 8 --times 4=3600,5=3600,2=48.301'
	@$(BUILD)/kubectl-jobset netcheck plan --nodes 8 --times 4=3600,5=3600,2=48.301
	@echo '$$ kubectl-jobset netcheck diagnose examples/netcheck/master.log'
	@$(BUILD)/kubectl-jobset netcheck diagnose examples/netcheck/master.log || true
	@echo '$$ kubectl-jobset simulate --monte-carlo --runs 1000 --nodes 2000 --node-mttf 8760h --run-time 72h --restart-time 10m --arrive-faulty 0.002 --node-check 3m --node-check-miss 0.05 examples/failure-policies/3-unlimited-on-maintenance.yaml'
	@$(BUILD)/kubectl-jobset simulate --monte-carlo --runs 1000 --nodes 2000 --node-mttf 8760h \
	  --run-time 72h --restart-time 10m --arrive-faulty 0.002 --node-check 3m \
	  --node-check-miss 0.05 examples/failure-policies/3-unlimited-on-maintenance.yaml

# Runs ctest in build folder $(1) with the extra arguments $(2) and environment $(3); on a failure
# it prints that stage's ten slowest units before failing (tests/slowest_units.sh).
define run_ctest
cd $(1) && status=0 && { $(3) ctest --output-on-failure -j $(JOBS) $(2) || status=$$?; } && \
  if [ $$status != 0 ]; then $(CURDIR)/tests/slowest_units.sh .; fi && exit $$status
endef

test: build
	$(call run_ctest,$(BUILD),,)
	$(MAKE) test-asan
	$(MAKE) test-fuzz
	@for stage in $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD); do tests/slowest_units.sh $$stage; done

# The whole suite again under AddressSanitizer and UndefinedBehaviorSanitizer, but for the
# webhook's timed load and fault test over TLS (its deadlines assume an optimised build; the
# webhook's unit tests, fault handling included, do run here).
test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DJOBSET_SANITIZE=ON $(CMAKE_FLAGS) \
	  $(CORPUS_FLAG) >/dev/null
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	$(call run_ctest,$(ASAN_BUILD),-E '^webhook_integration(_corpus)?$$',\
	  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1)

# The libFuzzer targets of tests/fuzz/ (lint, JSON parsing, admission), built with clang under ASan
# and UBSan, each run for FUZZ_SECONDS from the seeds: any crash, leak, sanitizer report,
# timeout or out-of-memory fails (docs/fuzzing.md).
test-fuzz: deps
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
	  -DJOBSET_FUZZ=ON -DJOBSET_FUZZ_SECONDS=$(FUZZ_SECONDS) $(CMAKE_FLAGS) >/dev/null
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz_targets
	$(call run_ctest,$(FUZZ_BUILD),-L fuzz,)

# clang-tidy (.clang-tidy) on every C++ file the build compiles; fails on a finding that
# tests/tidy-allowed.txt does not list, or on a listed one that is gone. (ctest `tidy` checks only
# the files a branch changes: all of them take too long for the test suite.)
tidy: deps
	$(CONFIGURE) >/dev/null
	TIDY_JOBS=$(JOBS) tests/tidy_test.sh . $(BUILD) --all

bench: build
	bench/run.sh $(BUILD)

# The release archive $(DIST)/kubectl-jobset-<version>-linux-<arch>.tar.gz (the binaries,
# LICENSE, README.md, completions/), its sha256, and the krew manifest for it, $(DIST)/jobset.yaml.
DIST ?= dist
dist: build
	packaging/dist.sh $(BUILD) $(DIST)

# The upstream examples and CRDs the corpus tests read, fetched with git at the commits of
# tests/corpus-pins.txt into corpus/ (git-ignored), where the tests find them by default.
corpus:
	tests/fetch_corpus.sh

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
