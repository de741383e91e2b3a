// A stand-in program for checking the reverse-test runner itself (cmake/expect.cmake):
// `exit_with N` exits with N after printing a line, `exit_with abort` crashes, `exit_with hang`
// never ends.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>

int main(int argc, char** argv) {
    if (argc != 2) return 2;
    std::puts("WATCHDOG: stand-in output");
    std::fflush(stdout);
    if (std::strcmp(argv[1], "abort") == 0) std::abort();
    if (std::strcmp(argv[1], "hang") == 0) std::promise<void>().get_future().wait(); // never set
    return std::atoi(argv[1]);
}
