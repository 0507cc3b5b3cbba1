import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

// A claim's attachment field: the file is uploaded as raw bytes at once and the field takes its id;
// a refused file is said under the button.
vi.mock("../../src/providers/session", () => ({ currentIdToken: () => Promise.resolve("id-token") }));
const { FileListUploadInput, FileUploadInput } = await import("../../src/components/FileUploadInput");

const pick = (input: HTMLElement, file: File) => fireEvent.change(input, { target: { files: [file] } });

describe("the attachment input", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("uploads the bytes with the token and the file's name, and takes the new id", async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ id: "f-1", name: "crack.jpg" }), { status: 201 })),
    );
    vi.stubGlobal("fetch", fetchMock);
    const onChange = vi.fn();
    const { rerender } = render(<FileUploadInput id="attachment" onChange={onChange} />);
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff])], "crack.jpg", { type: "image/jpeg" });
    pick(document.getElementById("attachment")!, file);
    await waitFor(() => expect(onChange).toHaveBeenCalledWith("f-1"));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/\/api\/v1\/files\?name=crack.jpg&purpose=attachment$/);
    expect(init.method).toBe("POST");
    expect(init.body).toBe(file);
    expect((init.headers as Record<string, string>).authorization).toBe("Bearer id-token");
    rerender(<FileUploadInput id="attachment" value="f-1" onChange={onChange} />);
    expect(screen.getByText("crack.jpg")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Remove" }));
    expect(onChange).toHaveBeenLastCalledWith(null);
  });

  it.each([
    [415, "Only PDF files and photos (PNG, JPEG, WebP, HEIC) can be attached."],
    [413, "The file is too large: at most 10 MB."],
  ])("says why a %s refusal happened, and keeps no value", async (status, text) => {
    vi.stubGlobal(
      "fetch",
      vi.fn(() =>
        Promise.resolve(
          new Response(JSON.stringify({ status, title: "x", detail: "refused", type: "about:blank" }), { status }),
        ),
      ),
    );
    const onChange = vi.fn();
    render(<FileUploadInput id="attachment" onChange={onChange} />);
    pick(document.getElementById("attachment")!, new File(["MZ"], "tool.exe"));
    expect((await screen.findByRole("alert")).textContent).toBe(text);
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe("the attachments input (several files)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("uploads each picked file, lists the accepted ones with their size, says which were refused, and removes one", async () => {
    const fetchMock = vi.fn((url: string) =>
      Promise.resolve(
        url.includes("name=tool.exe")
          ? new Response(JSON.stringify({ status: 415, title: "x", detail: "refused", type: "about:blank" }), {
              status: 415,
            })
          : new Response(JSON.stringify({ id: "f-2", name: "bill.pdf", size: 2048 }), { status: 201 }),
      ),
    );
    vi.stubGlobal("fetch", fetchMock);
    const onChange = vi.fn();
    const { rerender } = render(<FileListUploadInput id="attachments" value={["f-1"]} onChange={onChange} />);
    fireEvent.change(document.getElementById("attachments")!, {
      target: { files: [new File(["%PDF-"], "bill.pdf"), new File(["MZ"], "tool.exe")] },
    });
    await waitFor(() => expect(onChange).toHaveBeenCalledWith(["f-1", "f-2"]));
    expect((await screen.findByRole("alert")).textContent).toBe(
      "tool.exe: Only PDF files and photos (PNG, JPEG, WebP, HEIC) can be attached.",
    );
    rerender(<FileListUploadInput id="attachments" value={["f-1", "f-2"]} onChange={onChange} />);
    expect(screen.getByText("bill.pdf")).toBeTruthy();
    expect(screen.getByText("2 kB")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Remove bill.pdf" }));
    expect(onChange).toHaveBeenLastCalledWith(["f-1"]);
  });
});

describe("the file picker's words", () => {
  it("are the page's, on a button tied to the input, in English and in Spanish (the browser's own 'Choose file' is not shown)", async () => {
    const { setLocale } = await import("../../src/i18n");
    try {
      const { unmount } = render(<FileUploadInput id="one" />);
      const input = document.getElementById("one") as HTMLInputElement;
      expect(input.className).toBe("file-picker__input");
      const button = document.querySelector('label[for="one"]')!;
      expect(button.textContent).toBe("Add a photo or PDF");
      unmount();
      setLocale("es");
      render(<FileListUploadInput id="many" />);
      expect(document.querySelector('label[for="many"]')!.textContent).toBe("Añadir fotos o PDF");
    } finally {
      setLocale("en");
    }
  });
});
