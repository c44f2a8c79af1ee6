"""Great Battles of the American Civil War with Three Days of Gettysburg (GMT): the rule system's
package. So far it holds the charts as validated data (``gbacw.charts``); the game comes later."""
