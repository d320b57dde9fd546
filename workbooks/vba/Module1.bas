Attribute VB_Name = "Module1"
' xlsolver buttons. Each calls Python through xlwings' RunPython (module xlwings) and
' passes the version of that module, which Python compares with the xlwings installed.
' Source of truth: workbooks/vba/Module1.bas; rebuild with python workbooks/build_xlsm.py
Option Explicit

Const RESET_AFTER = "00:00:15"

Sub NewGrid()
    RunPython "import xlsolver.excel; xlsolver.excel.new_grid('" & XLWINGS_VERSION & "')"
    ResetStatusBarLater
End Sub

Sub SolvePuzzle()
    RunPython "import xlsolver.excel; xlsolver.excel.solve('" & XLWINGS_VERSION & "')"
    ResetStatusBarLater
End Sub

Sub HintStep()
    RunPython "import xlsolver.excel; xlsolver.excel.hint('" & XLWINGS_VERSION & "')"
    ResetStatusBarLater
End Sub

Sub ClearGrid()
    RunPython "import xlsolver.excel; xlsolver.excel.clear('" & XLWINGS_VERSION & "')"
    ResetStatusBarLater
End Sub

' Python leaves the outcome in the status bar; hand the bar back to Excel a little later.
Private Sub ResetStatusBarLater()
    Application.OnTime Now + TimeValue(RESET_AFTER), "ResetStatusBar"
End Sub

Sub ResetStatusBar()
    Application.StatusBar = False
End Sub
