/* stub */ document.body.setAttribute("data-kma","ok");
