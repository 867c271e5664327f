# Shared by the scripts that test Weft against real programs from the npm registry (sourced, not
# run). They keep what they download in a cache and skip (exit 77) with the reason when it is not
# there and cannot be fetched.

skip() { printf 'SKIP: %s\n' "$*"; exit 77; }

# npm_available_or_skip SPEC VERSION WHAT CACHE [HINT]: returns when npm can fetch SPEC (whose
# version must be VERSION); otherwise skips, saying that WHAT is not in CACHE and why.
npm_available_or_skip() {
    local spec=$1 version=$2 what=$3 cache=$4 hint=${5:-}
    command -v npm >/dev/null || skip "$what is not in $cache and there is no npm to download it$hint"
    local registry out why
    registry=$(npm config get registry 2>/dev/null || echo "the npm registry")
    # One quick question first (npm itself retries a dead registry for a minute).
    if ! out=$(timeout 60 npm view --fetch-retries=0 --fetch-timeout=30000 "$spec" version 2>&1) ||
        [ "$out" != "$version" ]; then
        why=$(printf '%s\n' "$out" | grep -m1 -E 'request to .* failed' ||
              printf '%s\n' "$out" | grep -m1 -E 'code E|404') || true
        why=${why#npm error }
        skip "$what is not in $cache and npm cannot get it from $registry: ${why:-no answer within 60 s}"
    fi
}
