"""LibreOffice Calc through UNO: a back end of the sheet protocol and the Calc macros.

Glossary
    UnoBook / UnoSheet  an open Calc document / worksheet behind the sheet protocol
    macros              the four button actions as Calc macros (run inside LibreOffice)
    installer           writes the small macro file Calc's script provider finds
"""
