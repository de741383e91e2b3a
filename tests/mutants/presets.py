"""Builds and runs by preset: what the mutant runner and the tour share.

Both configure a preset once (`cmake --preset P`, unless its build tree exists), build only the
targets a check needs (`cmake --build --preset P --target ...`), run ctest through the preset's
test preset (which brings its environment, ASAN_OPTIONS say) and keep every command's output in
one log file.
"""
import os
import subprocess
import time


class Presets:
    def __init__(self, root, log):
        self.root, self.log = root, log
        self.configured = set()

    def sh(self, cmd, timeout=None, env=()):
        """Run cmd in the root, its output appended to the log: (exit code, output). The exit
        code is None if the timeout killed it, negative if a signal did."""
        start = time.monotonic()
        try:
            done = subprocess.run(cmd, cwd=self.root, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, timeout=timeout, text=True,
                                  errors="replace", env={**os.environ, **dict(env)})
            rc, out = done.returncode, done.stdout
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else e.stdout
            rc, out = None, (out or "") + f"\n(killed after {timeout} s)\n"
        with open(self.log, "a") as log:
            log.write(f"\n$ {' '.join(cmd)}\n{out}(exit {rc}, {time.monotonic() - start:.1f} s)\n")
        return rc, out

    def try_build(self, preset, targets):
        """Configure `preset` if its tree is new (RuntimeError if that fails), then build
        `targets`: (exit code, the build's output), for a caller that reads compile errors."""
        if preset not in self.configured:
            if not (self.root / "build" / preset / "build.ninja").exists():
                if self.sh(["cmake", "--preset", preset])[0] != 0:
                    raise RuntimeError(f"configuring preset {preset} failed (see {self.log})")
            self.configured.add(preset)
        return self.sh(["cmake", "--build", "--preset", preset, "--target", *targets])

    def build(self, preset, targets):
        """Configure `preset` if its tree is new, then build `targets`. RuntimeError if either
        fails."""
        if self.try_build(preset, targets)[0] != 0:
            raise RuntimeError(f"building {' '.join(targets)} ({preset}) failed (see {self.log})")

    def ctest(self, preset, args, timeout=None, env=()):
        """ctest through the test preset of the same name: (exit code, output)."""
        return self.sh(["ctest", "--preset", preset, *args], timeout=timeout, env=env)

    def driver(self, preset, argv, timeout=None):
        """A driver of build/PRESET/apps with its arguments: (exit code, output)."""
        return self.sh([str(self.root / "build" / preset / "apps" / argv[0]), *argv[1:]],
                       timeout=timeout)
