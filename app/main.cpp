// SPDX-License-Identifier: GPL-3.0-or-later
// `weft`: the command line. It links no GUI library (app/CMakeLists.txt); without a command it
// becomes the window, weft-window, with the same arguments.
#include "cli.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace
{

/// Replaces this process with weft-window (WEFT_WINDOW_FROM_BIN beside this executable's
/// folder); returns only if that fails, with the exit code.
int execWindow(char **argv)
{
    char self[PATH_MAX];
    const ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) {
        std::fprintf(stderr, "weft: cannot find its own executable: %s\n", std::strerror(errno));
        return 1;
    }
    const std::string exe(self, size_t(length));
    const std::string window = exe.substr(0, exe.rfind('/') + 1) + WEFT_WINDOW_FROM_BIN "/weft-window";
    execv(window.c_str(), argv);
    std::fprintf(stderr, "weft: cannot start the window %s: %s\n", window.c_str(), std::strerror(errno));
    return 1;
}

} // namespace

int main(int argc, char **argv)
{
    const weft::Cli::GlobalOptions options = weft::Cli::parseGlobal(argc, argv);
    if (!weft::Cli::isCommand(options))
        return execWindow(argv);
    return weft::Cli::runProcess(argc, argv, options);
}
