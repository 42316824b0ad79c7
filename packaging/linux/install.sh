#!/usr/bin/env sh
# Installs Combat Desk for the current user: the program under ~/.local/opt, a launcher in the
# applications menu and the icon. Run from the unpacked tarball: ./install.sh
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${XDG_DATA_HOME:-$HOME/.local/share}
opt=$HOME/.local/opt/CombatDesk
mkdir -p "$opt" "$prefix/applications" "$prefix/icons/hicolor/scalable/apps" "$HOME/.local/bin"
cp -a "$here/CombatDesk/." "$opt/"
ln -sf "$opt/CombatDesk" "$HOME/.local/bin/CombatDesk"
sed "s|^Exec=.*|Exec=$opt/CombatDesk|" "$here/combatdesk.desktop" > "$prefix/applications/combatdesk.desktop"
cp "$here/combatdesk.svg" "$prefix/icons/hicolor/scalable/apps/combatdesk.svg"
echo "Combat Desk installed: find it in your applications menu, or run ~/.local/bin/CombatDesk"
