# Sourced by .ci/run and .ci/wheels: find_python VERSION prints the newest pyenv interpreter of that minor version
# (pyenv root's versions/3.12.*/bin/python3.12, say), or says which is missing and fails: a Python we claim is never
# skipped.

pyenv_root() {
    if ! command -v pyenv >/dev/null 2>&1; then
        echo "pyenv is not on PATH: every Python that pyproject.toml claims is tested with pyenv's interpreters" >&2
        return 1
    fi
    pyenv root
}

find_python() {
    local version=$1 root best
    root=$(pyenv_root) || return 1
    best=$(printf '%s\n' "$root"/versions/"$version".* | grep -E "/$version\.[0-9]+$" | sort -V | tail -n 1 || true)
    if [[ -z $best || ! -x $best/bin/python$version ]]; then
        echo "Python $version is missing: no $root/versions/$version.N/bin/python$version (pyenv install $version)" >&2
        return 1
    fi
    echo "$best/bin/python$version"
}

# Runs a command, showing its output only when it fails (less pip's notes on the machine's absent local indexes).
quietly() {
    local log status=0
    log=$(mktemp)
    "$@" >"$log" 2>&1 || status=$?
    if ((status)); then
        grep -v '^WARNING: Location .* is ignored' "$log" >&2 || true
        echo "failed ($status): $*" >&2
    fi
    rm -f "$log"
    return "$status"
}
