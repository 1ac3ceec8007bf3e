#!/bin/sh
# Test-only TLS material for the local fakes served over https (microsoft-graph-fake.ts):
#   ca.pem          a test certificate authority, name-constrained to 127.0.0.1, ::1 and localhost;
#                   the processes that call the fakes trust it through NODE_EXTRA_CA_CERTS
#                   (vitest.config.ts, web/e2e/global-setup.ts; see test-ca.ts)
#   server.pem      the fakes' certificate (127.0.0.1, ::1, localhost), signed by that CA
#   server-key.pem  its private key
# Valid for 100 years. The CA's private key is thrown away (a temp dir), so nothing more can ever be
# signed with it; the name constraints would keep it to loopback anyway. Never trusted by the
# product: only test processes get NODE_EXTRA_CA_CERTS. Generated once with OpenSSL 3 by:
#   sh server/test/fakes/tls/generate.sh
# (re-running replaces all three files; commit them together).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
days=36525

openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days "$days" \
  -keyout "$tmp/ca-key.pem" -out "$here/ca.pem" \
  -subj "/CN=Avail test CA (local fakes only)" \
  -addext "basicConstraints=critical,CA:TRUE,pathlen:0" \
  -addext "keyUsage=critical,keyCertSign,cRLSign" \
  -addext "nameConstraints=critical,permitted;IP:127.0.0.1/255.255.255.255,permitted;IP:0:0:0:0:0:0:0:1/FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF:FFFF,permitted;DNS:localhost"

openssl req -newkey rsa:2048 -nodes -sha256 \
  -keyout "$here/server-key.pem" -out "$tmp/server.csr" \
  -subj "/CN=localhost"

printf '%s\n' \
  "basicConstraints=critical,CA:FALSE" \
  "keyUsage=critical,digitalSignature,keyEncipherment" \
  "extendedKeyUsage=serverAuth" \
  "subjectAltName=IP:127.0.0.1,IP:0:0:0:0:0:0:0:1,DNS:localhost" > "$tmp/server.ext"

openssl x509 -req -sha256 -days "$days" -in "$tmp/server.csr" \
  -CA "$here/ca.pem" -CAkey "$tmp/ca-key.pem" -CAcreateserial -CAserial "$tmp/ca.srl" \
  -extfile "$tmp/server.ext" -out "$here/server.pem"

openssl verify -CAfile "$here/ca.pem" "$here/server.pem"
