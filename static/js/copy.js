// "Copy" buttons: <button data-copy="id-of-input">. Without JavaScript the key is still there to
// select and copy by hand.
document.querySelectorAll("button[data-copy]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const field = document.getElementById(button.dataset.copy);
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
    } catch (error) {
      document.execCommand("copy");
    }
    button.textContent = "Copied";
  });
});
