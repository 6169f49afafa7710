#!/bin/sh
# The window against a real TLS-only server, driven the way a person does it on a real X
# server (not the offscreen platform the QtTest suites use): `lockscope-cli sandbox --tls`
# starts a private redis-server with the demo locks and a CA made for the run; the window runs
# under xvfb-run; xdotool opens the connection dialog (Ctrl+N), types the rediss:// URL (Alt+U)
# and the CA file (Alt+L) and presses Enter; `import -window root` takes the screen once the
# table is filled. Nothing outside 127.0.0.1 is contacted.
#
#   tests/ui/xvfb_tls_screenshot.sh BUILD_DIR OUT_DIR
#
# Writes OUT_DIR/xvfb-connection-dialog-tls.png (the dialog, filled in) and
# OUT_DIR/xvfb-lock-table-tls.png (the window with the TLS server's locks). Exits non-zero
# when a step fails; look at the pictures either way.
set -eu
build=$(cd "${1:?BUILD_DIR}" && pwd)
out=${2:?OUT_DIR}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
sandbox_pid=
cleanup() {
    [ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

"$build/app/lockscope-cli" sandbox --tls >"$work/sandbox.out" 2>&1 &
sandbox_pid=$!
for _ in $(seq 100); do
    grep -q 'its CA certificate' "$work/sandbox.out" 2>/dev/null && break
    sleep 0.1
done
url=$(sed -n 's/^sandbox redis-server at \([^ ]*\) .*/\1/p' "$work/sandbox.out" | sed 's/127\.0\.0\.1/localhost/')
ca=$(sed -n 's/^TLS only; its CA certificate: //p' "$work/sandbox.out")
[ -n "$url" ] && [ -n "$ca" ] || { cat "$work/sandbox.out"; exit 1; }
echo "TLS sandbox: $url (CA $ca)"

# Inside the X server: the window with a fresh configuration (no saved connections), then
# the keystrokes a person types.
cat >"$work/drive.sh" <<EOF
set -eu
export XDG_CONFIG_HOME="$work/config" LOCKSCOPE_AUDIT_LOG="$work/audit.jsonl"
"$build/app/lockscope" >"$work/gui.log" 2>&1 &
gui=\$!
trap 'kill \$gui 2>/dev/null || true' EXIT
for _ in \$(seq 100); do
    xdotool search --name 'LockScope' >/dev/null 2>&1 && break
    sleep 0.2
done
sleep 2
# No window manager under xvfb-run: give the window the keyboard focus ourselves.
xdotool search --onlyvisible --name 'LockScope' | head -n 1 | xargs -r xdotool windowfocus --sync || true
xdotool key ctrl+n
for _ in \$(seq 50); do
    xdotool search --name '^Connection\$' >/dev/null 2>&1 && break
    sleep 0.2
done
sleep 1
xdotool search --onlyvisible --name '^Connection\$' | head -n 1 | xargs -r xdotool windowfocus --sync || true
xdotool key alt+u ctrl+a
xdotool type --delay 20 '$url'
xdotool key alt+l
xdotool type --delay 20 '$ca'
sleep 0.5
import -window root "$out/xvfb-connection-dialog-tls.png"
xdotool key Return
sleep 8
import -window root "$out/xvfb-lock-table-tls.png"
cp "$work/gui.log" "$out/xvfb-gui.log"
EOF
xvfb-run -a -s '-screen 0 1280x800x24' sh "$work/drive.sh"
echo "screenshots: $out/xvfb-connection-dialog-tls.png $out/xvfb-lock-table-tls.png"
