// SPDX-License-Identifier: GPL-3.0-or-later
// The config loader (Config::parse, as for every opencode.json(c) and weft.json found): `{env:}`
// and `{file:}` substitution, JSONC, then the provider and model resolution that reads the
// result (ProviderFactory). `{file:}` paths resolve in the process's temporary folder, which
// holds a.txt and sub/b.md; the environment is a fixed one.

#include "fuzzcommon.h"

#include "provider/config.h"

#include <QDir>
#include <QFile>

using namespace weft;
using namespace Qt::StringLiterals;

namespace
{
void write(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(content);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::ensureApp();
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    // {file:} refuses devices and pipes and reads at most 8 MiB, but a regular file in /proc or
    // /sys can still block (/proc/kmsg): the fuzzer is kept out of the kernel's folders.
    for (const char *special : {"/proc", "/sys", "/run"}) {
        if (input.contains(special))
            return 0;
    }
    static const ModelCatalogue *catalogue = new ModelCatalogue(ModelCatalogue::builtin());
    static const QProcessEnvironment env = [] {
        write(fuzz::tempDir() + u"/a.txt"_s, "a \"quoted\" {file:a.txt}\nsecond line\n");
        write(fuzz::tempDir() + u"/sub/b.md"_s, "---\nmodel: x/y\n---\nbody \\ with {env:KEY}\n");
        QProcessEnvironment e;
        e.insert(u"HOME"_s, fuzz::tempDir());
        e.insert(u"XDG_CONFIG_HOME"_s, fuzz::tempDir() + u"/config"_s);
        e.insert(u"XDG_DATA_HOME"_s, fuzz::tempDir() + u"/data"_s);
        e.insert(u"KEY"_s, u"sk-test"_s);
        e.insert(u"QUOTE"_s, u"\"}{,//"_s);
        e.insert(u"EMPTY"_s, QString());
        return e;
    }();

    const Result<Config> config = Config::parse(input, fuzz::tempDir() + u"/opencode.jsonc"_s, env);
    (void)Config::stripJsonc(input);
    if (!config)
        return 0;
    (void)config->disabledProviders();
    (void)config->instructions();
    (void)Config::mergeLayers(config->json(), config->json());

    const ProviderFactory factory(*config, *catalogue, env);
    const JsonObject providers = config->providers();
    for (qsizetype i = 0; i < providers.size(); ++i) {
        const QString id = providers.keyAt(i);
        if (const Result<ProviderInfo> info = factory.providerInfo(id))
            (void)info->settings();
        const JsonObject models = providers.valueAt(i).toObject().object(u"models");
        for (qsizetype m = 0; m < models.size(); ++m)
            (void)factory.modelInfo(id, models.keyAt(m));
    }
    const QString model = factory.defaultModel();
    (void)factory.modelInfo(model);
    (void)factory.smallModel(model);
    return 0;
}

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    // The application, the model catalogue and the files {file:} reads,
    // once, before libFuzzer's per-input timeout applies.
    static const char warm[] = "{}";
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(warm), sizeof warm - 1);
    return 0;
}
