# Sourced: newest_python prints the newest CPython 3 on PATH or under pyenv (a pyenv version whose shim is not
# active is called by its full path), or nothing.
newest_python() {
    local candidate best="" best_version=0 version
    for candidate in $(compgen -c python3. | grep -E '^python3\.[0-9]+$' | sort -u) \
        "${PYENV_ROOT:-$HOME/.pyenv}"/versions/*/bin/python3.[0-9]*; do
        [[ "$candidate" == *-config || "$candidate" == *-gdb.py ]] && continue
        version="$("$candidate" -c 'import sys; print(sys.version_info[0] * 100 + sys.version_info[1])' 2>/dev/null)" \
            || continue
        if [ "$version" -gt "$best_version" ]; then best="$candidate" best_version="$version"; fi
    done
    echo "$best"
}
