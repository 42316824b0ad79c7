; Per-user installer for Combat Desk (no administrator rights): Start-menu entry, optional
; desktop shortcut, uninstaller. Built by .github/workflows/release.yml on Windows
; (makensis /DVERSION=x.y.z packaging/windows/installer.nsi) from the one-folder build in
; dist/CombatDesk; Debian's makensis builds the same script (shared/PITFALLS.md).
; TARGET: amd64-unicode from build.py (Wine has no 32-bit side here); NSIS's default otherwise.
!ifdef TARGET
  Target "${TARGET}"
!else
  Unicode true
!endif
; packaging/windows/build.py (make package-windows, on Debian under Wine) passes SRCDIR and
; OUTFILE; the defaults are the release workflow's paths.
!ifndef VERSION
  !define VERSION "0.0.0"
!endif
!ifndef SRCDIR
  !define SRCDIR "..\..\dist\CombatDesk"
!endif
!ifndef OUTFILE
  !define OUTFILE "..\..\dist\CombatDesk-${VERSION}-windows-x64-setup.exe"
!endif
!define APP "Combat Desk"
!define REGKEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\CombatDesk"

Name "${APP} ${VERSION}"
OutFile "${OUTFILE}"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\CombatDesk"
InstallDirRegKey HKCU "${REGKEY}" "InstallLocation"
SetCompressor /SOLID lzma

!include "MUI2.nsh"
!define MUI_ICON "combatdesk.ico"
!define MUI_UNICON "combatdesk.ico"
; A version resource for the installer too (Properties → Details; SmartScreen shows the name).
VIProductVersion "${VERSION}.0"
VIAddVersionKey "ProductName" "${APP}"
VIAddVersionKey "FileDescription" "${APP} installer"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "CompanyName" "${APP}"
VIAddVersionKey "LegalCopyright" "${APP}"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Section "Combat Desk" SecMain
  SectionIn RO
  SetOutPath "$INSTDIR"
  File /r "${SRCDIR}\*.*"
  WriteUninstaller "$INSTDIR\Uninstall.exe"
  CreateDirectory "$SMPROGRAMS\${APP}"
  CreateShortcut "$SMPROGRAMS\${APP}\${APP}.lnk" "$INSTDIR\CombatDesk.exe"
  CreateShortcut "$SMPROGRAMS\${APP}\Uninstall ${APP}.lnk" "$INSTDIR\Uninstall.exe"
  WriteRegStr HKCU "${REGKEY}" "DisplayName" "${APP}"
  WriteRegStr HKCU "${REGKEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${REGKEY}" "DisplayIcon" '"$INSTDIR\CombatDesk.exe",0'
  WriteRegStr HKCU "${REGKEY}" "Publisher" "${APP}"
  WriteRegStr HKCU "${REGKEY}" "QuietUninstallString" '"$INSTDIR\Uninstall.exe" /S'
  WriteRegStr HKCU "${REGKEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${REGKEY}" "UninstallString" '"$INSTDIR\Uninstall.exe"'
  WriteRegDWORD HKCU "${REGKEY}" "NoModify" 1
  WriteRegDWORD HKCU "${REGKEY}" "NoRepair" 1
SectionEnd

Section /o "Desktop shortcut" SecDesktop
  CreateShortcut "$DESKTOP\${APP}.lnk" "$INSTDIR\CombatDesk.exe"
SectionEnd

; No file association: the program opens no file given on its command line, and what it
; writes (roster .json/.csv, campaign backups .sqlite) are general formats other programs own;
; a backup is restored from inside the program, on purpose, never by a double-click.

Section "Uninstall"
  Delete "$DESKTOP\${APP}.lnk"
  RMDir /r "$SMPROGRAMS\${APP}"
  RMDir /r "$INSTDIR"
  DeleteRegKey HKCU "${REGKEY}"
SectionEnd
