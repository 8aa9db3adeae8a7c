#!/usr/bin/env bash
# Checks what a release deployed into a Maven repository directory (release/rehearse.sh deploys one):
# exactly the published modules, each with what Maven Central requires, signed when signatures are asked for.
#   release/check-repository.sh <repository-dir> [--signed <gnupg-home>]
set -euo pipefail
cd "$(dirname "$0")/.."

repo=${1:?usage: release/check-repository.sh <repository-dir> [--signed <gnupg-home>]}
gnupg=
if [[ ${2:-} == --signed ]]; then
    gnupg=${3:?--signed needs the GnuPG home that holds the public key}
fi
[[ -d $repo ]] || { echo "FAIL: no repository at $repo" >&2; exit 1; }

# What is published (README.md, "Releasing"): the parent pom, the BOM, and these jars.
poms=(baton-parent baton-bom)
jars=(baton-api baton-impl baton-jpa-store baton-redis-store baton-zookeeper-store baton-etcd-store baton-mongodb-store baton-tck)
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -1)
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

# Nothing else landed: no example, benchmark, fault-injection module or store-author project.
expected=$(printf '%s\n' "${poms[@]}" "${jars[@]}" | sort)
landed=$(find "$repo" -name '*.pom' -printf '%P\n' | awk -F/ '{print $(NF-2)}' | sort -u)
if [[ $landed != "$expected" ]]; then
    fail "the repository holds [$(echo $landed)], expected exactly [$(echo $expected)]"
fi
outside=$(find "$repo" -type f -not -path "$repo/dev/baton/*" -printf '%P\n')
[[ -z $outside ]] || fail "files outside dev/baton: $outside"

# The newest deployed file of an artifact with this suffix (a snapshot's names carry a timestamp).
deployed() {
    local dir="$repo/dev/baton/$1/$version" suffix=$2
    find "$dir" -maxdepth 1 -name "$1-*$suffix" -not -name "*-sources.jar" -not -name "*-javadoc.jar" \
        -printf '%f\n' 2>/dev/null | sort | tail -1 | sed "s:^:$dir/:"
}
deployed_classified() {
    find "$repo/dev/baton/$1/$version" -maxdepth 1 -name "$1-*-$2.jar" 2>/dev/null | sort | tail -1
}

# Whether a jar has an entry matching the pattern (the listing is read whole first: grep -q stopping early
# must not fail a pipe under pipefail).
has_entry() {
    local listing
    listing=$(unzip -Z1 "$1")
    grep -q "$2" <<<"$listing"
}

check_file() {
    local what=$1 file=$2
    if [[ -z $file || ! -s $file ]]; then fail "$what is missing"; return 1; fi
    [[ -s $file.sha1 ]] || fail "$what has no .sha1 checksum"
    if [[ -n $gnupg ]]; then
        if [[ ! -s $file.asc ]]; then
            fail "$what is not signed (no $(basename "$file").asc)"
        elif ! gpg --homedir "$gnupg" --batch --quiet --verify "$file.asc" "$file" 2>/dev/null; then
            fail "$what: the signature $(basename "$file").asc does not verify"
        fi
    fi
    return 0
}

# Central's metadata: on the parent and the BOM themselves, inherited by the others from the parent.
check_metadata() {
    local artifact=$1 pom=$2 element
    for element in name description; do
        grep -q "<$element>" "$pom" || fail "$artifact's pom has no <$element>"
    done
    if [[ $artifact == baton-parent || $artifact == baton-bom ]]; then
        for element in url licenses developers scm; do
            grep -q "<$element[ >]" "$pom" || fail "$artifact's pom has no <$element>"
        done
    else
        grep -q '<artifactId>baton-parent</artifactId>' "$pom" || fail "$artifact's pom does not inherit baton-parent"
    fi
}

for artifact in "${poms[@]}" "${jars[@]}"; do
    pom=$(deployed "$artifact" .pom)
    check_file "$artifact's pom" "$pom" && check_metadata "$artifact" "$pom"
done
for artifact in "${jars[@]}"; do
    jar=$(deployed "$artifact" .jar)
    if check_file "$artifact's jar" "$jar"; then
        has_entry "$jar" '\.class$' || fail "$artifact's jar holds no class"
    fi
    sources=$(deployed_classified "$artifact" sources)
    if check_file "$artifact's sources jar" "$sources"; then
        has_entry "$sources" '\.java$' || fail "$artifact's sources jar holds no .java file"
    fi
    javadoc=$(deployed_classified "$artifact" javadoc)
    if check_file "$artifact's javadoc jar" "$javadoc"; then
        has_entry "$javadoc" '^index\.html$' || fail "$artifact's javadoc jar has no index.html"
    fi
done

# The BOM has no parent and names its signing plugin's version itself: it must be the root pom's.
root_gpg=$(sed -n 's:.*<version.gpg-plugin>\(.*\)</version.gpg-plugin>.*:\1:p' pom.xml)
bom_gpg=$(grep -A2 '<artifactId>maven-gpg-plugin</artifactId>' bom/pom.xml | sed -n 's:.*<version>\(.*\)</version>.*:\1:p')
[[ -n $root_gpg && $root_gpg == "$bom_gpg" ]] \
    || fail "bom/pom.xml signs with maven-gpg-plugin '$bom_gpg', the root pom's version.gpg-plugin is '$root_gpg'"

if ((failures > 0)); then
    echo "$failures problem(s) in $repo" >&2
    exit 1
fi
echo "OK: $repo holds exactly ${#poms[@]} poms and ${#jars[@]} jars of $version, each jar with sources and javadoc$([[ -n $gnupg ]] && echo ", every file signed and verified")"
