// Nothing that changes the page's look: replayed pages run no script.
window.smallSite = true;
