// A spawned job's exception on a pool built without a panic handler aborts the process, with a
// message that names it (rayon aborts the same way: registry.rs:375-384).
#include <mini/broadcast.hpp>

#include <stdexcept>

int main() {
    mini::ThreadPool pool(2);
    pool.spawn([] { throw std::runtime_error("boom from a spawned job"); });
} // ~ThreadPool waits for the job, which aborts first
