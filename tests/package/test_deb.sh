#!/usr/bin/env bash
# The Debian packages as a user gets them: cpack -G DEB, their control fields, then both
# unpacked into a scratch root where the installed lockscope-cli must run, and the desktop,
# AppStream and MIME files must validate.
#   tests/package/test_deb.sh BUILD_DIR VERSION GUI   (GUI: 1 when the build has the window)
set -euo pipefail
build=$(cd "$1" && pwd)
version=$2
gui=${3:-1}
cd "$build"
rm -rf packages package-root
cpack -G DEB -B "$build/packages" >cpack.log 2>&1 || { cat cpack.log; exit 1; }

runtime=$(ls packages/lockscope_"$version"_*.deb)
dev=$(ls packages/lockscope-dev_"$version"_*.deb)
for deb in "$runtime" "$dev"; do dpkg-deb --info "$deb"; done

fail() { echo "FAIL: $*" >&2; exit 1; }
depends=$(dpkg-deb --field "$runtime" Depends)
# dpkg-shlibdeps found the shared libraries the binaries load.
libs=(libhiredis libsqlite3)
[ "$gui" = 1 ] && libs+=(libqt6core6 libqt6widgets6 libqcustomplot)
for lib in "${libs[@]}"; do
  grep -q "$lib" <<<"$depends" || fail "lockscope Depends lacks $lib: $depends"
done
grep -q libhiredis-dev <<<"$(dpkg-deb --field "$dev" Depends)" || fail "lockscope-dev Depends"

root=$build/package-root
# The AppStream id: it names the metainfo, the desktop file and the icon (resources/).
app_id=io.github.lockscope.lockscope
for deb in "$runtime" "$dev"; do dpkg -x "$deb" "$root"; done
files=(usr/bin/lockscope-cli usr/share/man/man1/lockscope-cli.1.gz
       usr/include/lockscope/version.h usr/include/lockscope/redis_lock.h)
[ "$gui" = 1 ] && files+=(usr/bin/lockscope usr/share/man/man1/lockscope.1.gz
                          usr/share/applications/$app_id.desktop
                          usr/share/metainfo/$app_id.metainfo.xml
                          usr/share/mime/packages/lockscope.xml
                          usr/share/icons/hicolor/scalable/apps/$app_id.svg)
for f in "${files[@]}"; do
  [ -e "$root/$f" ] || fail "$f is not in the packages"
done
# usr/lib/<multiarch>/ when configured with the /usr prefix (release preset), else usr/lib/.
for f in cmake/LockScope/LockScopeConfig.cmake pkgconfig/lockscope.pc liblockscope_core.a; do
  compgen -G "$root/usr/lib/$f" >/dev/null || compgen -G "$root/usr/lib/*/$f" >/dev/null ||
    fail "$f is not in the packages"
done
for module in sim torture exporter; do
  [ ! -e "$root/usr/include/lockscope/$module" ] || fail "the $module headers were packaged"
done
[ ! -e "$root/usr/include/lockscope/sandbox" ] || fail "the sandbox's headers were packaged"

out=$("$root/usr/bin/lockscope-cli" --version)
[ "$out" = "lockscope-cli $version" ] || fail "lockscope-cli --version printed: $out"
if [ "$gui" = 1 ]; then
  out=$(QT_QPA_PLATFORM=offscreen "$root/usr/bin/lockscope" --version)
  [ "$out" = "LockScope $version" ] || fail "lockscope --version printed: $out"
  # --pedantic: the id is lower case, the launchable is the installed desktop file.
  appstreamcli validate --no-net --pedantic "$root/usr/share/metainfo/$app_id.metainfo.xml"
  grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" \
    "$root/usr/share/metainfo/$app_id.metainfo.xml" || fail "the metainfo launches another desktop file"
  grep -qx "Icon=$app_id" "$root/usr/share/applications/$app_id.desktop" || fail "desktop Icon"
  if command -v desktop-file-validate >/dev/null; then
    desktop-file-validate "$root/usr/share/applications/$app_id.desktop"
  fi
  if command -v xmllint >/dev/null; then xmllint --noout "$root/usr/share/mime/packages/lockscope.xml"; fi
fi
zcat "$root/usr/share/man/man1/lockscope-cli.1.gz" | grep -q '^\.TH "lockscope-cli" "1"' ||
  fail "lockscope-cli.1 is not a man page"
# Debian's own package checker: no errors. The maintainer address is a placeholder until the
# project publishes one (cmake -DLOCKSCOPE_PACKAGE_MAINTAINER=...); only then is that tag kept.
if command -v lintian >/dev/null; then
  suppress=()
  if grep -q '@localhost>' <<<"$(dpkg-deb --field "$runtime" Maintainer)"; then
    echo "lintian: Maintainer is the placeholder address; bogus-mail-host not checked"
    suppress=(--suppress-tags bogus-mail-host,bogus-mail-host-in-debian-changelog)
  fi
  lintian --fail-on error --tag-display-limit 0 "${suppress[@]}" "$runtime" "$dev" ||
    fail "lintian reports errors"
fi
echo "packages ok: $(basename "$runtime") $(basename "$dev")"
