/* Calls into a core that catch the C++ exceptions it throws.
 *
 * Some cores are C++ and throw on bad input: stella's serializer throws std::ios_base::failure on a
 * corrupt state. An exception cannot cross host.c's C frames (no unwind tables), so the C++ runtime
 * would terminate the process. Catching it here, in the frame right above the core, turns it into a
 * return value; host.c then reports it like any other error.
 *
 * A thread's forced unwind (pthread_exit, which CPython uses to stop daemon threads at exit) is
 * not an error: it must pass through, or glibc aborts with "exception not rethrown".
 */
#include <cxxabi.h>

#include <cstddef>
#include <cstdio>
#include <exception>

/* call() with a core's exception turned into -1 and its message in error. */
template <typename Call>
static int guarded(Call call, char *error, std::size_t error_size) {
    try {
        return call();
    } catch (abi::__forced_unwind &) {
        throw;
    } catch (const std::exception &e) {
        std::snprintf(error, error_size, "the core threw a C++ exception: %s", e.what());
    } catch (...) {
        std::snprintf(error, error_size, "the core threw a C++ exception: not a std::exception");
    }
    return -1;
}

extern "C" int emu_guarded_unserialize(bool (*unserialize)(const void *, std::size_t), const void *data,
                                       std::size_t size, char *error, std::size_t error_size) {
    return guarded([&] { return unserialize(data, size) ? 1 : 0; }, error, error_size);
}

extern "C" int emu_guarded_run(void (*run)(void), char *error, std::size_t error_size) {
    return guarded([&] { run(); return 0; }, error, error_size);
}

extern "C" int emu_guarded_call(void (*call)(void *), void *context, char *error, std::size_t error_size) {
    return guarded([&] { call(context); return 0; }, error, error_size);
}
