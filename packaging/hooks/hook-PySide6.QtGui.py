# Replaces PyInstaller's hook for PySide6.QtGui: the same collection, restricted to the Qt
# plugins MFS Desktop needs, so that the libraries only dropped plugins link (GTK for the
# gtk3 theme, QtQuick for the virtual keyboard, eglfs, vnc…) are never analysed or bundled.
import re

from PyInstaller.utils.hooks.qt import add_qt6_dependencies

# Paths under PySide6/Qt/plugins. Platforms: xcb (X11), wayland, offscreen (headless, tests);
# the xdg-desktop-portal theme gives native file dialogs; compose and ibus carry text input
# methods. PNG is built into QtGui; the SVG plugins draw SVG icons, jpeg is kept for images.
KEPT = re.compile(
    r"/plugins/("
    r"platforms/libq(xcb|wayland|offscreen)\.so"
    r"|xcbglintegrations/[^/]+"
    r"|wayland-shell-integration/libxdg-shell\.so"
    r"|wayland-decoration-client/[^/]+"
    r"|wayland-graphics-integration-client/libqt-plugin-wayland-egl\.so"
    r"|platforminputcontexts/lib(compose|ibus)platforminputcontextplugin\.so"
    r"|platformthemes/libqxdgdesktopportal\.so"
    r"|imageformats/libq(svg|jpeg)\.so"
    r"|iconengines/libqsvgicon\.so"
    r")$"
)

hiddenimports, binaries, datas = add_qt6_dependencies(__file__)
binaries = [(source, dest) for source, dest in binaries if "/plugins/" not in source or KEPT.search(source)]
