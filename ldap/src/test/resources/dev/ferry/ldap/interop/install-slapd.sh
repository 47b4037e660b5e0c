#!/bin/sh
# Installs OpenLDAP slapd, ldap-utils and slapd-contrib (the pw-sha2 and pw-pbkdf2 password
# modules) from Debian's packages without creating a database or
# starting a service (see docs/interop.md). Needs root. Idempotent.
set -eu
if [ -x /usr/sbin/slapd ] && command -v ldapsearch >/dev/null 2>&1 \
  && [ -e /usr/lib/ldap/pw-pbkdf2.so ]; then exit 0; fi
if [ "$(id -u)" != 0 ]; then echo "slapd is missing and we are not root: cannot install it" >&2; exit 2; fi
echo "slapd slapd/no_configuration boolean true" | debconf-set-selections
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends slapd ldap-utils slapd-contrib
