// SPDX-License-Identifier: GPL-3.0-or-later
// The front matter of markdown agents and commands (parseFrontMatter: a YAML subset), as
// ConfigDiscovery reads `.opencode/agent/*.md` and `.opencode/command/*.md`.

#include "fuzzcommon.h"

#include "provider/frontmatter.h"

using namespace weft;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = fuzz::text(data, size);
    if (const Result<FrontMatterDocument> doc = parseFrontMatter(text))
        (void)toJson(doc->data, 0);
    (void)parseYamlMapping(text);
    return 0;
}
