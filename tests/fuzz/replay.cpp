// SPDX-License-Identifier: GPL-3.0-or-later
// The main() of a fuzz target in the normal build (gcc, no libFuzzer): runs every file of the
// folders and files named on the command line through LLVMFuzzerTestOneInput, so that the seed
// corpus and every crasher ever found (tests/fuzz/regressions/<target>/) are checked by CTest,
// under ASan/UBSan too when the build has WEFT_SANITIZE.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
// Defined by the targets with a costly one-time setup, as libFuzzer allows.
extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

namespace
{

bool runFile(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        return false;
    }
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    // A copy of exactly the input's size, so that ASan sees any read past its end.
    std::vector<uint8_t> input(bytes.begin(), bytes.end());
    LLVMFuzzerTestOneInput(input.empty() ? nullptr : input.data(), input.size());
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    int count = 0;
    bool ok = true;
    for (int i = 1; i < argc; ++i) {
        const std::filesystem::path arg(argv[i]);
        std::error_code ec;
        if (std::filesystem::is_directory(arg, ec)) {
            std::vector<std::filesystem::path> files;
            for (const auto &entry : std::filesystem::recursive_directory_iterator(arg, ec))
                if (entry.is_regular_file())
                    files.push_back(entry.path());
            // Sorted: the same order on every run, whatever the file system's.
            std::sort(files.begin(), files.end());
            for (const auto &file : files) {
                ok = runFile(file) && ok;
                ++count;
            }
        } else if (std::filesystem::exists(arg, ec)) {
            ok = runFile(arg) && ok;
            ++count;
        }
        // A folder that does not exist (no regressions yet) is no error.
    }
    std::printf("%s: %d inputs replayed\n", argc > 0 ? argv[0] : "fuzz", count);
    return ok ? 0 : 1;
}
