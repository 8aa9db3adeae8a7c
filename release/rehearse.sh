#!/usr/bin/env bash
# A release rehearsal: the release profile's deployment of every published module into a file repository
# (target/release-repo), signed with a throwaway key made for the occasion (target/release-gnupg), then
# release/check-repository.sh on what landed. Tests are skipped: run ./mvnw verify first.
#   release/rehearse.sh [more Maven arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

repo=$PWD/target/release-repo
gnupg=$PWD/target/release-gnupg
rm -rf "$repo" "$gnupg"
mkdir -p "$gnupg"
chmod 700 "$gnupg"
# gpg starts an agent for the throwaway home: stop it whatever happens
trap 'gpgconf --homedir "$gnupg" --kill all 2>/dev/null || true' EXIT

gpg --homedir "$gnupg" --batch --quiet --passphrase '' \
    --quick-generate-key 'Baton release rehearsal <rehearsal@baton.invalid>' ed25519 sign 1d
key=$(gpg --homedir "$gnupg" --batch --with-colons --list-secret-keys | awk -F: '$1 == "fpr" { print $10; exit }')

./mvnw -B -ntp -Prelease deploy -pl bom,api,impl,jpa-store,redis-store,zookeeper-store,etcd-store,mongodb-store,tck -am -DskipTests \
    -DaltDeploymentRepository="rehearsal::file://$repo" -Dgpg.homedir="$gnupg" -Dgpg.keyname="$key" "$@"

release/check-repository.sh "$repo" --signed "$gnupg"
