; Per-user installer for Combat Desk (no administrator rights): Start-menu entry, optional
; desktop shortcut, uninstaller. Built by .github/workflows/release.yml on Windows
; (makensis /DVERSION=x.y.z packaging/windows/installer.nsi) from the one-folder build in
; dist/CombatDesk; Debian's makensis builds the same script (shared/PITFALLS.md).
Unicode true
!ifndef VERSION
  !define VERSION "0.0.0"
!endif
!define APP "Combat Desk"
!define REGKEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\CombatDesk"

Name "${APP} ${VERSION}"
OutFile "..\..\dist\CombatDesk-${VERSION}-windows-x64-setup.exe"
RequestExecutionLevel user
InstallDir "$LOCALAPPDATA\Programs\CombatDesk"
InstallDirRegKey HKCU "${REGKEY}" "InstallLocation"
SetCompressor /SOLID lzma

!include "MUI2.nsh"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Section "Combat Desk" SecMain
  SectionIn RO
  SetOutPath "$INSTDIR"
  File /r "..\..\dist\CombatDesk\*.*"
  WriteUninstaller "$INSTDIR\Uninstall.exe"
  CreateDirectory "$SMPROGRAMS\${APP}"
  CreateShortcut "$SMPROGRAMS\${APP}\${APP}.lnk" "$INSTDIR\CombatDesk.exe"
  CreateShortcut "$SMPROGRAMS\${APP}\Uninstall ${APP}.lnk" "$INSTDIR\Uninstall.exe"
  WriteRegStr HKCU "${REGKEY}" "DisplayName" "${APP}"
  WriteRegStr HKCU "${REGKEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${REGKEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${REGKEY}" "UninstallString" '"$INSTDIR\Uninstall.exe"'
  WriteRegDWORD HKCU "${REGKEY}" "NoModify" 1
  WriteRegDWORD HKCU "${REGKEY}" "NoRepair" 1
SectionEnd

Section /o "Desktop shortcut" SecDesktop
  CreateShortcut "$DESKTOP\${APP}.lnk" "$INSTDIR\CombatDesk.exe"
SectionEnd

Section "Uninstall"
  Delete "$DESKTOP\${APP}.lnk"
  RMDir /r "$SMPROGRAMS\${APP}"
  RMDir /r "$INSTDIR"
  DeleteRegKey HKCU "${REGKEY}"
SectionEnd
