#!/bin/bash
# The image's HEALTHCHECK: GET /health on the gateway's own port, healthy on a 200. Bash's
# /dev/tcp instead of curl or wget, which the image leaves out; the gateway listens on HOST
# 0.0.0.0 in the container, so loopback reaches it.
exec 3<>"/dev/tcp/127.0.0.1/${PORT:-3000}" || exit 1
printf 'GET /health HTTP/1.0\r\nHost: localhost\r\n\r\n' >&3
read -r -t 5 status <&3 || exit 1
[[ $status == HTTP/1.[01]\ 200\ * ]]
