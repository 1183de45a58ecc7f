#!/usr/bin/env bash
# The native host (emucore/libretro/*.c) built with the compilers' sanitizers and run under the tests that drive it:
#   thread:  -fsanitize=thread over the vector env, the batch step, the cores' rand() and the thread races;
#   address: -fsanitize=address,undefined over the host, the frames and observations, the batch and the evaluator.
# Each build goes into a scratch copy of the checkout's tracked files (the .venv's own build is untouched), whose
# emucore comes first on sys.path, with caches of its own (a ROM-probe verdict made under a sanitizer stays there). The cores are not instrumented: what is checked is our C and the calls it makes.
# A report fails the run and is printed. Usage: scripts/sanitize.sh [thread|address]... (default: both).
# Needs the .venv that scripts/test.sh sets up.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
apt_install gcc g++
cd "$ROOT"
[ -x "$VENV/bin/python" ] || { echo "sanitize.sh: no $VENV: run scripts/test.sh first" >&2; exit 2; }

THREAD_TESTS=(tests/emucore/env/test_vector_races.py tests/emucore/env/test_vector_batch.py
              tests/emucore/env/test_vector_async.py tests/emucore/env/test_vector_same_step.py
              tests/emucore/env/test_sticky_frame_skip.py tests/emucore/libretro/test_core_rand.py
              tests/emucore/host/test_host_safety.py)
ADDRESS_TESTS=(tests/emucore/host tests/emucore/libretro/test_obs_speed_paths.py tests/emucore/env/test_frame_skip_c.py
               tests/emucore/env/test_frame_skip.py tests/emucore/env/test_scaled_observations.py
               tests/emucore/env/test_vector_batch.py tests/emucore/env/test_vector_same_step.py
               tests/emucore/scenario/test_compiled_scenario.py
               # the probes' tests crash cores on purpose in forked children, where the address sanitizer's handler
               # would take the signal the probe reads (they were not in this run before they moved to host/)
               --ignore=tests/emucore/host/test_rom_probe.py --ignore=tests/emucore/host/test_rom_probe_seal.py
               --ignore=tests/emucore/host/test_state_probe.py)

run_sanitized() {
    local mode="$1" flags runtime scratch logs status=0 started
    shift
    scratch="$(mktemp -d)"
    logs="$scratch/reports"  # each sanitizer writes its reports here (a test's subprocesses too)
    local options=()
    case "$mode" in
        thread) flags="-fsanitize=thread"; runtime="libtsan.so"
                options=(TSAN_OPTIONS="log_path=$logs/report report_signal_unsafe=0 report_thread_leaks=0 second_deadlock_stack=1") ;;
        address) flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined"; runtime="libasan.so"
                 options=(ASAN_OPTIONS="log_path=$logs/report detect_leaks=0 quarantine_size_mb=16"
                          UBSAN_OPTIONS="log_path=$logs/report print_stacktrace=1 halt_on_error=1") ;;
        *) echo "sanitize.sh: unknown mode $mode (thread or address)" >&2; return 2 ;;
    esac
    mkdir -p "$logs"
    git ls-files -z | xargs -0 cp --parents -t "$scratch"
    step "sanitizer $mode: building the native host with $flags"
    (cd "$scratch" && CFLAGS="$flags -g -O1 -fno-omit-frame-pointer" LDFLAGS="$flags" \
        quietly timeout 900 "$VENV/bin/python" setup.py build_ext --inplace)
    step "sanitizer $mode: $*"
    started=$SECONDS
    # the runtime first; and libstdc++ with it, whose __cxa_throw the runtime wraps (Python does not load it itself)
    (cd "$scratch" && env LD_PRELOAD="$(gcc -print-file-name="$runtime") $(gcc -print-file-name=libstdc++.so)" \
        PYTHONMALLOC=malloc XDG_CACHE_HOME="$scratch/cache" XDG_CONFIG_HOME="$scratch/config" \
        PYTHONPATH="$scratch" QT_QPA_PLATFORM=offscreen "${options[@]}" \
        timeout 1500 "$VENV/bin/python" -m pytest -q -p no:cacheprovider -n auto --dist loadgroup "$@") || status=$?
    if compgen -G "$logs/report*" > /dev/null; then
        cat "$logs"/report* | tee "${SANITIZER_REPORTS:-/dev/null}"
        echo "sanitizer $mode: the reports above" >&2
        status=1
    fi
    echo "sanitizer $mode: $((SECONDS - started)) s of tests, exit $status"
    rm -rf "$scratch"
    return "$status"
}

modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(thread address)
for mode in "${modes[@]}"; do
    case "$mode" in
        thread) run_sanitized thread "${THREAD_TESTS[@]}" ;;
        address) run_sanitized address "${ADDRESS_TESTS[@]}" ;;
        *) run_sanitized "$mode" ;;
    esac
done
